"""Bots: each sees only a player's view and the legal actions."""

from velvet.bots import heuristics  # the p5 and vs evaluators their GameSpecs name
from velvet.bots.base import Bot, RandomBot
from velvet.bots.budget import Budget
from velvet.bots.evaluators import get_evaluator, neutral_evaluator, register_evaluator
from velvet.bots.greedy import GreedyBot
from velvet.bots.mcts import ISMCTSBot, MCTSBot
from velvet.bots.registry import BOT_CHOICES, BOT_HELP, LEVELS, make_bot

__all__ = [
    "BOT_CHOICES",
    "BOT_HELP",
    "LEVELS",
    "Bot",
    "Budget",
    "GreedyBot",
    "ISMCTSBot",
    "MCTSBot",
    "RandomBot",
    "get_evaluator",
    "heuristics",
    "make_bot",
    "neutral_evaluator",
    "register_evaluator",
]
