"""Real-browser tests: JupyterLab driven by Chromium (marker ``browser``)."""
