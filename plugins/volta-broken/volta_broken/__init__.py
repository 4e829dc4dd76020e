"""Two deliberately broken volta plugins: one fails on import, one in a hook."""
