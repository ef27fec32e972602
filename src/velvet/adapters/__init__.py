"""Velvet's games behind the interfaces AI research uses (extra ``[rl]``).

Importing this package registers the Gymnasium ids ``velvet/vs-v0`` and
``velvet/p5-v0``. PettingZoo envs are in :mod:`velvet.adapters.pettingzoo_env`;
the OpenSpiel games (``python_velvet_vs``, ``python_velvet_p5``) are registered by
importing :mod:`velvet.adapters.openspiel_game`. See docs/rl.md.
"""

from velvet.adapters.gym_env import VelvetEnv, register_envs

register_envs()

__all__ = ["VelvetEnv", "register_envs"]
