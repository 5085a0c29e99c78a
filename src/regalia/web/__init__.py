"""The browser client: static files (HTML, CSS, JavaScript modules) that `regalia serve` serves."""
