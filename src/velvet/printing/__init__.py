"""Print and play: PDF sheets of any card set (cards to cut, backs, rules, P5 boards)."""
