"""Batched Gymnasium envs: many Velvet games stepped at once, in this process or in workers.

``gymnasium.make_vec("velvet/vs-v0", num_envs=N)`` (or ``velvet/p5-v0``) gives a
:class:`VelvetVectorEnv` (the ids' ``vector_entry_point``); ``workers=W`` spreads the N
games over this process and W worker processes, each stepping its share in a loop and writing
observations, masks, rewards and flags straight into one block of shared memory, so a
step costs one short message per worker, not one per game. Gymnasium's own
``vectorization_mode="sync"`` / ``"async"`` work too (one game per worker process there).
The batch is the one :class:`gymnasium.vector.SyncVectorEnv` gives for the same seeds and
actions (tested): observations ``{"observation": (N, size) float32, "action_mask": (N,
ids) int8}``, ``info["action_mask"]`` the same masks, next-step autoreset.
"""

from __future__ import annotations

import multiprocessing
import os
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from velvet.adapters._engine import ConfigError, die_with_parent
from velvet.adapters.gym_env import VelvetEnv

Obs = dict[str, npt.NDArray[Any]]

WORKER_TIMEOUT = 60.0
"""Seconds to wait for a worker's answer before it is judged dead (a VS or P5 step of a
share of games takes milliseconds)."""


@dataclass(frozen=True)
class _Layout:
    """Where each batch array lies in the shared block: (name, dtype, shape, offset)."""

    fields: tuple[tuple[str, str, tuple[int, ...], int], ...]
    size: int

    @staticmethod
    def build(shapes: Sequence[tuple[str, str, tuple[int, ...]]]) -> _Layout:
        """The arrays ``(name, dtype, shape)`` one after another, each on its own cache lines."""
        fields = []
        at = 0
        for name, dtype, shape in shapes:
            fields.append((name, dtype, shape, at))
            nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
            at += -(-nbytes // 64) * 64
        return _Layout(tuple(fields), at)

    @staticmethod
    def of(num_envs: int, obs_size: int, n_actions: int) -> _Layout:
        return _Layout.build(
            (
                ("observation", "float32", (num_envs, obs_size)),
                ("action_mask", "int8", (num_envs, n_actions)),
                ("actions", "int64", (num_envs,)),
                ("rewards", "float64", (num_envs,)),
                ("terminations", "bool", (num_envs,)),
                ("truncations", "bool", (num_envs,)),
            )
        )

    def arrays(self, buffer: Any) -> dict[str, npt.NDArray[Any]]:
        out: dict[str, npt.NDArray[Any]] = {}
        for name, dtype, shape, offset in self.fields:
            count = int(np.prod(shape))
            out[name] = np.frombuffer(buffer, dtype=dtype, count=count, offset=offset).reshape(
                shape
            )
        return out


class Share(Protocol):
    """The games ``start..stop-1`` of a batch, stepped in a loop into the batch arrays: what
    this process and each worker run (:class:`_Share` for the Gymnasium batch)."""

    def reset(
        self, seeds: Sequence[int | None], options: dict[str, Any] | None
    ) -> dict[int, dict[str, Any]]: ...

    def step(self) -> dict[int, dict[str, Any]]: ...


ShareMaker = Callable[[dict[str, Any], int, int, dict[str, Any]], Share]
"""``(env_kwargs, start, stop, arrays)`` to a share: a module-level class, so that a
spawned worker can import it."""


class _Share:
    """The games ``start..stop-1`` of a batch, stepped in a loop into the batch arrays."""

    def __init__(
        self, env_kwargs: dict[str, Any], start: int, stop: int, arrays: dict[str, Any]
    ) -> None:
        self.envs = [VelvetEnv(**env_kwargs) for _ in range(start, stop)]
        self.start = start
        self.arrays = arrays
        self.autoreset = [False] * len(self.envs)

    def reset(
        self, seeds: Sequence[int | None], options: dict[str, Any] | None
    ) -> dict[int, dict[str, Any]]:
        """Reset every game of the share (game i with ``seeds[i - start]``); no infos."""
        a = self.arrays
        for k, (env, seed) in enumerate(zip(self.envs, seeds, strict=True)):
            i = self.start + k
            env.reset(seed=seed, options=options)
            env.observe_into(a["observation"][i], a["action_mask"][i])
            a["rewards"][i] = 0.0
            a["terminations"][i] = a["truncations"][i] = False
            self.autoreset[k] = False
        return {}

    def step(self) -> dict[int, dict[str, Any]]:
        """Step every game by its action in the batch; the infos beyond the mask, by index."""
        a = self.arrays
        actions = a["actions"]
        obs, masks = a["observation"], a["action_mask"]
        rewards, terms, truncs = a["rewards"], a["terminations"], a["truncations"]
        extras: dict[int, dict[str, Any]] = {}
        for k, env in enumerate(self.envs):
            i = self.start + k
            extra: dict[str, Any] = {}
            if self.autoreset[k]:  # next-step autoreset: this step's action is ignored
                env.reset()
                reward, terminated, truncated = 0.0, False, False
            else:
                reward, terminated, truncated, extra = env.advance(int(actions[i]))
            env.observe_into(obs[i], masks[i])
            rewards[i] = reward
            terms[i] = terminated
            truncs[i] = truncated
            self.autoreset[k] = terminated or truncated
            if extra:
                extras[i] = extra
        return extras


def _worker(
    conn: Connection,
    buffer: Any,
    layout: _Layout,
    make_share: ShareMaker,
    env_kwargs: dict[str, Any],
    start: int,
    stop: int,
    parent: int,
) -> None:
    """A worker process: make its games, then answer reset/step/close until closed."""
    die_with_parent(parent)
    try:
        share = make_share(env_kwargs, start, stop, layout.arrays(buffer))
    except BaseException as error:  # sent to the parent, which raises it
        conn.send(("error", _portable(error)))
        return
    conn.send(("ready", None))
    while True:
        try:
            command, data = conn.recv()
        except (EOFError, OSError):  # the parent closed its end without a word: done
            return
        try:
            if command == "step":
                conn.send(("ok", share.step()))
            elif command == "reset":
                conn.send(("ok", share.reset(*data)))
            elif command == "close":
                conn.send(("ok", {}))
                return
            else:
                conn.send(("error", _portable(ConfigError(f"unknown worker command {command!r}"))))
        except BaseException as error:  # sent to the parent, which raises it
            conn.send(("error", _portable(error)))


def _portable(error: BaseException) -> tuple[Any, ...]:
    """``error`` as (class, args, attributes), which pickles even when the class's
    ``__init__`` takes other arguments than its ``args`` (the engine's
    IllegalActionError); :func:`_rebuilt` makes it again. An error whose parts do not
    pickle comes back as a RuntimeError with its traceback."""
    import pickle

    parts = (type(error), error.args, dict(vars(error)))
    try:
        pickle.dumps(parts)
    except Exception:
        text = "".join(traceback.format_exception(error))
        parts = (RuntimeError, (f"in a vector env worker: {text}",), {})
    return parts


def _rebuilt(parts: tuple[Any, ...]) -> BaseException:
    kind, args, attributes = parts
    error: BaseException = kind.__new__(kind)
    error.args = args
    error.__dict__.update(attributes)
    return error


def check_batch_arguments(num_envs: Any, workers: Any, start_method: str) -> None:
    """ConfigError unless ``num_envs``, ``workers`` and ``start_method`` make a batch."""
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ConfigError(f"num_envs must be a positive integer, not {num_envs!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
        raise ConfigError(
            f"workers must be 0 (this process) or a number of processes, not {workers!r}"
        )
    if workers >= num_envs:
        raise ConfigError(
            f"workers ({workers}) must be below num_envs ({num_envs}): "
            "this process steps a share of the games too"
        )
    if start_method not in multiprocessing.get_all_start_methods():
        raise ConfigError(
            f"start_method must be one of {', '.join(multiprocessing.get_all_start_methods())}"
            f", not {start_method!r}"
        )


class Batch:
    """The machinery of a batch: its arrays (in shared memory when there are workers), the
    share of the games this process steps, and the worker processes stepping the others.

    ``make_share(env_kwargs, start, stop, arrays)`` makes a share; games ``0..`` go to
    this process, the rest to ``workers`` processes (started here, ended by :meth:`close`
    or with this process). Both batched envs, Gymnasium's and PettingZoo's, run on it.
    """

    def __init__(
        self,
        make_share: ShareMaker,
        env_kwargs: dict[str, Any],
        layout: _Layout,
        num_envs: int,
        workers: int,
        start_method: str,
    ) -> None:
        self.num_envs = num_envs
        self.bounds = _split(num_envs, workers + 1)
        self.conns: list[Connection] = []
        self.processes: list[Any] = []
        self.stopped = False
        if workers == 0:
            self.buffer: Any = bytearray(layout.size)
        else:
            context: Any = multiprocessing.get_context(start_method)
            self.buffer = context.RawArray("b", layout.size)
        self.arrays = layout.arrays(self.buffer)
        if workers:
            try:
                for start, stop in self.bounds[1:]:
                    ours, theirs = context.Pipe()
                    process = context.Process(
                        target=_worker,
                        args=(
                            theirs,
                            self.buffer,
                            layout,
                            make_share,
                            env_kwargs,
                            start,
                            stop,
                            os.getpid(),
                        ),
                        name=f"velvet-vec-{start}",
                        daemon=True,
                    )
                    process.start()
                    theirs.close()
                    self.conns.append(ours)
                    self.processes.append(process)
                self._gather()
            except BaseException:
                self.close(terminate=True)
                raise
        self.share = make_share(env_kwargs, *self.bounds[0], self.arrays)

    def reset(
        self, seeds: Sequence[int | None], options: dict[str, Any] | None
    ) -> dict[int, dict[str, Any]]:
        """Reset game i with ``seeds[i]``; the infos beyond the arrays, by game index."""
        for conn, (start, stop) in zip(self.conns, self.bounds[1:], strict=True):
            conn.send(("reset", (seeds[start:stop], options)))
        start, stop = self.bounds[0]
        return self._together(lambda: self.share.reset(seeds[start:stop], options))

    def step(self) -> dict[int, dict[str, Any]]:
        """Step every game by its actions in the arrays; the infos beyond them, by index."""
        for conn in self.conns:
            conn.send(("step", None))
        return self._together(self.share.step)

    def close(self, terminate: bool = False) -> None:
        """End the workers (asking first unless ``terminate``) and release the pipes."""
        for conn in self.conns:
            if not terminate:
                try:
                    conn.send(("close", None))
                    if conn.poll(5.0):
                        conn.recv()
                except (OSError, EOFError):
                    pass
            conn.close()
        for process in self.processes:
            process.join(5.0)
            if process.is_alive():
                process.terminate()
                process.join(5.0)
        self.conns = []
        self.processes = []

    def _together(self, own: Callable[[], dict[int, dict[str, Any]]]) -> dict[int, dict[str, Any]]:
        """This process's share of the command just sent to the workers (``own``), then
        every worker's answer; the infos beyond the arrays of all, by index. An error, this
        process's first, is raised after every answer is in."""
        errors: list[Exception] = []
        extras: dict[int, dict[str, Any]] = {}
        try:
            extras = own()
        except Exception as error:
            errors.append(error)
        if self.conns:
            try:
                extras.update(self._gather())
            except Exception as error:
                errors.append(error)
        if errors:
            raise errors[0]
        return extras

    def _gather(self) -> dict[int, dict[str, Any]]:
        """Every worker's answer to the command just sent (all of them, so no answer is
        left in a pipe); the first worker's error is raised after."""
        extras: dict[int, dict[str, Any]] = {}
        errors: list[BaseException] = []
        for conn in self.conns:
            if not conn.poll(WORKER_TIMEOUT):
                self._stop()
                raise RuntimeError(
                    f"a Velvet vector env worker gave no answer in {WORKER_TIMEOUT:.0f} s; "
                    "the workers were stopped"
                )
            try:
                status, data = conn.recv()
            except EOFError:
                self._stop()
                raise RuntimeError(
                    "a Velvet vector env worker died (its traceback is above; with the "
                    "spawn start method a script must make the env under "
                    "`if __name__ == '__main__':`); the workers were stopped"
                ) from None
            if status == "error":
                errors.append(_rebuilt(data))
            elif data:
                extras.update(data)
        if errors:
            raise errors[0]
        return extras

    def _stop(self) -> None:
        self.close(terminate=True)
        self.stopped = True


def batch_seeds(seed: int | Sequence[int | None] | None, num_envs: int) -> list[int | None]:
    """One seed per game from ``reset``'s ``seed``: ``s + i`` for an int (as SyncVectorEnv
    does), the list itself, or None for every game; ConfigError for a wrong count."""
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, int) and not isinstance(seed, bool):
        return [seed + i for i in range(num_envs)]
    seeds = list(seed)  # type: ignore[arg-type]  # a sequence by the annotation; list() checks
    if len(seeds) != num_envs:
        raise ConfigError(
            f"reset: {len(seeds)} seeds given for {num_envs} envs "
            "(give one int, one seed per env, or None)"
        )
    return seeds


class VelvetVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` :class:`VelvetEnv` games of one kind, stepped as a batch.

    ``workers=0`` (the default) steps them all in this process; ``workers=W`` splits them
    over this process and W worker processes (spawned, and ended with this process) that
    write into shared memory, so this process is not idle while the workers step (on 2
    cores, ``workers=1`` keeps both busy). ``start_method`` is multiprocessing's: spawn,
    the default, needs a script's ``if __name__ == "__main__":``; fork starts quicker but
    is unsafe in a process with threads (Ray's, torch's). Every other keyword is
    :class:`VelvetEnv`'s (``game``, ``seat``, ``opponent``, ``players``, ``config``,
    ``max_steps``, ``shaping``, ``illegal``). ``copy=False`` returns the batch arrays
    themselves (overwritten by the next step) instead of copies.

    Autoreset is Gymnasium's default, next step: the step after a game ends resets that
    game and ignores its action (its mask in the final observation is all zeros; send any
    id). ``reset(seed=s)`` seeds game i with ``s + i``, as SyncVectorEnv does.
    """

    def __init__(
        self,
        num_envs: int,
        workers: int = 0,
        copy: bool = True,
        start_method: str = "spawn",
        **env_kwargs: Any,
    ) -> None:
        check_batch_arguments(num_envs, workers, start_method)
        if env_kwargs.get("render_mode") is not None:
            raise ConfigError("a vector env does not render: render one VelvetEnv instead")
        env_kwargs.pop("render_mode", None)
        probe = VelvetEnv(**env_kwargs)  # a bad keyword fails here, with VelvetEnv's error
        self.num_envs = num_envs
        self.workers = workers
        self.copy = copy
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        self.observation_space = batch_space(probe.observation_space, num_envs)
        self.action_space = batch_space(probe.action_space, num_envs)
        self.metadata = {**probe.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        self.render_mode = None
        self.n_actions = probe.n_actions
        layout = _Layout.of(num_envs, probe.encoder.size, probe.n_actions)
        self._batch = Batch(_Share, env_kwargs, layout, num_envs, workers, start_method)
        self._arrays = self._batch.arrays
        self._started = False

    @property
    def _processes(self) -> list[Any]:
        return self._batch.processes

    @property
    def _shares(self) -> list[_Share]:
        share = self._batch.share
        assert isinstance(share, _Share)
        return [share]

    # --- the vector API ----------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Obs, dict[str, Any]]:
        self._check_open()
        self._batch.reset(batch_seeds(seed, self.num_envs), options)
        self._started = True
        return self._observation(), self._infos({})

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Obs,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        self._check_open()
        if not self._started:
            raise ConfigError("call reset() before step()")
        batch = np.asarray(actions)
        if batch.shape != (self.num_envs,) or batch.dtype.kind not in "iu":
            raise ConfigError(
                f"step takes one integer action id per env, shape ({self.num_envs},), "
                f"not an array of shape {batch.shape} and dtype {batch.dtype}"
            )
        if batch.size and (batch.min() < 0 or batch.max() >= self.n_actions):
            raise ConfigError(f"action ids must lie in 0..{self.n_actions - 1}")
        a = self._arrays
        a["actions"][:] = batch
        extras = self._batch.step()
        return (
            self._observation(),
            a["rewards"].copy(),
            a["terminations"].copy(),
            a["truncations"].copy(),
            self._infos(extras),
        )

    def close_extras(self, terminate: bool = False, **kwargs: Any) -> None:
        """End the workers (asking first unless ``terminate``) and release the pipes."""
        self._batch.close(terminate)

    # --- helpers -----------------------------------------------------------------------

    def _observation(self) -> Obs:
        a = self._arrays
        if self.copy:
            return {"observation": a["observation"].copy(), "action_mask": a["action_mask"].copy()}
        return {"observation": a["observation"], "action_mask": a["action_mask"]}

    def _infos(self, extras: dict[int, dict[str, Any]]) -> dict[str, Any]:
        infos: dict[str, Any] = {
            "action_mask": self._arrays["action_mask"].copy(),
            "_action_mask": np.ones(self.num_envs, dtype=np.bool_),
        }
        for i in sorted(extras):
            infos = self._add_info(infos, extras[i], i)
        return infos

    def _check_open(self) -> None:
        if self._batch.stopped:
            self.closed = True
        if self.closed:
            raise ConfigError("the vector env is closed: make a new one")


def _split(count: int, parts: int) -> list[tuple[int, int]]:
    """``range(count)`` cut into ``parts`` runs whose sizes differ by at most one."""
    base, extra = divmod(count, parts)
    bounds = []
    start = 0
    for p in range(parts):
        stop = start + base + (1 if p < extra else 0)
        bounds.append((start, stop))
        start = stop
    return bounds


def make_vector_env(num_envs: int = 1, **kwargs: Any) -> VelvetVectorEnv:
    """The ``vector_entry_point`` of ``velvet/vs-v0`` and ``velvet/p5-v0``."""
    kwargs.pop("max_episode_steps", None)  # make_vec adds the spec's (None for these ids)
    return VelvetVectorEnv(num_envs, **kwargs)
