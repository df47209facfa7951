"""Frames: pieces shared out among n identical frames (sets, choice, layout)."""
