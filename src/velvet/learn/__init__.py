"""Lessons: short positions with a goal, coach text and feedback that names the rule.

``velvet learn GAME`` plays them in the terminal (:mod:`velvet.learn.terminal`); the
lessons are data files (:mod:`velvet.learn.lessons`, format in docs/learn.md) and the
progress is kept in the data folder (:mod:`velvet.learn.progress`).
"""
