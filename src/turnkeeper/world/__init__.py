"""The world layer: hexes, wilderness maps and their file format, travel costs and routes."""
