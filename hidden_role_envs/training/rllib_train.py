"""Train PPO with action masking on a game with Ray RLlib, on this machine or on a Ray cluster.

    python -m hidden_role_envs.training.rllib_train secrets            # or: hidden-roles train secrets --backend rllib
    python -m hidden_role_envs.training.rllib_train spyfall --policy-per-role --env-runners 2
    python -m hidden_role_envs.training.rllib_train hoax --address 10.0.0.5:6379 --env-runners 15

Every seat of the game is played by the policy being trained (self-play),
through RLlib's PettingZoo wrapper (`training.rllib_env`): one policy shared
by all seats, or with `--policy-per-role` one policy per role in a game whose
roles are fixed for the whole episode (declared by the game's definition:
Spyfall's `spy` and `non_spy`; in Secrets and Mascarade identities change
hands, and in Hoax every seat plays for itself). PPO runs on
RLlib's current API stack (RLModule, Learner, EnvRunner, connectors) with
RLlib's action-masking module, which pushes the logits of illegal actions to
the lowest float: the mask reaches the policy when it samples, learns and
plays greedily.

Each iteration samples `--batch-size` env steps (one step = one seat's
decision) on `--env-runners` processes running `--envs-per-runner` games each,
then learns from them in this process, until `--timesteps` steps. A line per
iteration tells the env steps so far, the mean episode return per seat (per
role with `--policy-per-role`; RLlib's average over the last 100 episodes),
and the sampling throughput, overall and per env runner.

Ray: a new local instance by default; `--address HOST:PORT` joins a running
cluster (started with `ray start`, see the README), `--address auto` the one
this machine belongs to. Every node needs this package installed.

Everything goes to `--out` (default `runs/<game>-<players>p-seed<seed>-rllib`):
progress.csv (one row per iteration), checkpoints/step_<env steps>/ (every
`--checkpoint-every` iterations and at the end; `Algorithm.from_checkpoint`
restores one), and evaluation.csv: the trained policy, playing its most
likely legal action in one seat, against random players and against scripted
ones, `--final-games` games each (0: no evaluation). Bad input prints one
`train: error: ...` line and exits with status 2.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import socket
import sys
import time
from dataclasses import dataclass

from hidden_role_envs.core import registry
from hidden_role_envs.training.arguments import Parser, UsageError, non_negative_int, positive_int, table_size
from hidden_role_envs.training.evaluate import Row, evaluate
from hidden_role_envs.training.reporting import OPPONENT_KINDS, format_final, random_baselines, write_final

RAY_PORT = 6379


@dataclass
class Settings:
    game: str
    num_players: int
    timesteps: int
    seed: int
    env_runners: int | None  # None: one per CPU (local), or the cluster's CPUs less one
    envs_per_runner: int
    batch_size: int
    minibatch_size: int
    policy_per_role: bool
    address: str | None
    out: str
    checkpoint_every: int
    final_games: int


@dataclass
class Iteration:
    number: int
    env_steps: int
    episodes: int
    returns: dict[str, float]  # mean episode return per seat: "all", and each role with --policy-per-role
    sampling_seconds: float  # so far, summed over the runners
    steps_per_second: float  # sampling in this iteration, all runners together
    steps_per_second_per_runner: float
    seconds: float  # the whole iteration: sampling and learning


def build_parser(prog: str = "python -m hidden_role_envs.training.rllib_train") -> argparse.ArgumentParser:
    parser = Parser(prog=prog, description="Train PPO with action masking with Ray RLlib, locally or on a cluster.")
    parser.add_argument("game", help="the game: " + ", ".join(registry.GAMES))
    parser.add_argument("--players", type=positive_int, default=None, help="number of players (default: the game's)")
    parser.add_argument("--timesteps", type=positive_int, default=300_000,
                        help="env steps (decisions of any seat) to sample (default 300000)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the model, the games, evaluations")
    parser.add_argument("--env-runners", type=non_negative_int, default=None,
                        help="sampling processes (default: one per CPU locally, the cluster's CPUs less one on a "
                             "cluster; 0 samples in this process)")
    parser.add_argument("--envs-per-runner", type=positive_int, default=16,
                        help="games each runner plays side by side, batching the policy's inference (16)")
    parser.add_argument("--batch-size", type=positive_int, default=4000, help="env steps per iteration (4000)")
    parser.add_argument("--minibatch-size", type=positive_int, default=256, help="PPO minibatch (256)")
    parser.add_argument("--policy-per-role", action="store_true",
                        help="one policy per fixed role (games whose roles stay put: Spyfall)")
    parser.add_argument("--address", default=None,
                        help="a running Ray cluster: HOST[:PORT] of its head (port 6379 by default), or 'auto' for "
                             "the one this machine belongs to (default: a new local instance)")
    parser.add_argument("--out", default=None, help="output folder (default runs/<game>-<players>p-seed<seed>-rllib)")
    parser.add_argument("--checkpoint-every", type=positive_int, default=10, help="iterations between checkpoints (10)")
    parser.add_argument("--final-games", type=non_negative_int, default=1000,
                        help="games per opponent kind in the final evaluation (1000; 0: none)")
    return parser


def check_address(address: str) -> str:
    """The address as Ray takes it; UsageError unless it is 'auto' or a HOST[:PORT] that accepts connections.

    Checked here because Ray keeps retrying an address that does not answer.
    """
    if address == "auto":
        return address
    host, colon, port_text = address.rpartition(":")
    if not colon:
        host, port_text = port_text, str(RAY_PORT)
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise UsageError(f"--address {address!r}: expected HOST:PORT of a Ray head node, or 'auto'")
    try:
        socket.create_connection((host, int(port_text)), timeout=5).close()
    except OSError as error:
        raise UsageError(f"--address {address!r}: no Ray cluster answers there ({error.strerror or error})") from None
    return f"{host}:{port_text}"


def settings_from(args: argparse.Namespace) -> Settings:
    num_players = table_size(args.game, args.players)
    if args.policy_per_role and registry.GAMES[args.game].fixed_roles is None:
        raise UsageError(f"--policy-per-role: {args.game} has no fixed roles; games with fixed roles: "
                         f"{', '.join(fixed_role_games())}")
    if args.minibatch_size > args.batch_size:
        raise UsageError(f"--minibatch-size {args.minibatch_size} is larger than --batch-size {args.batch_size}")
    out = args.out or os.path.join("runs", f"{args.game}-{num_players}p-seed{args.seed}-rllib")
    if os.path.exists(out) and not os.path.isdir(out):
        raise UsageError(f"--out {out!r} exists and is not a folder")
    address = None if args.address is None else check_address(args.address)
    return Settings(args.game, num_players, args.timesteps, args.seed, args.env_runners, args.envs_per_runner,
                    args.batch_size, args.minibatch_size, args.policy_per_role, address, out, args.checkpoint_every,
                    args.final_games)


def quiet_ray_logs() -> None:
    """Ray's warnings about its own API versions, which say nothing of the run, stay out of the output."""
    import logging

    import ray.rllib  # noqa: F401  (sets its own logger's level when first imported)

    for name in ("ray", "ray.rllib"):
        logging.getLogger(name).setLevel(logging.ERROR)


def start_ray(s: Settings) -> int:
    """Start or join Ray; return the number of env runners to use."""
    import logging

    import ray

    quiet_ray_logs()
    options = {
        "logging_level": logging.ERROR,
        "runtime_env": {"worker_process_setup_hook": "hidden_role_envs.training.rllib_train.quiet_ray_logs"},  # in every Ray process
    }
    if s.address is None:
        cpus = os.cpu_count() or 1
        runners = cpus if s.env_runners is None else s.env_runners
        # never fewer CPUs than runners: more runners than cores share them instead of waiting for a free one
        ray.init(address="local", num_cpus=max(cpus, runners), include_dashboard=False, **options)
        return runners
    try:
        ray.init(address=s.address, **options)
    except (ConnectionError, RuntimeError) as error:
        raise UsageError(f"--address {s.address!r}: {error}") from None
    cluster_cpus = int(ray.cluster_resources().get("CPU", 0))
    runners = max(1, cluster_cpus - 1) if s.env_runners is None else s.env_runners
    if runners > cluster_cpus:
        print(f"note: the cluster has {cluster_cpus} CPUs for {runners} env runners; runners wait for free CPUs")
    return runners


def build_algorithm(s: Settings, env_runners: int):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from hidden_role_envs.training import rllib_env

    env_config = {"game": s.game, "num_players": s.num_players, "roles": s.policy_per_role}
    probe = rllib_env.GameEnv(env_config)
    agent = probe.possible_agents[0]
    policies = policy_ids(s.game, s.policy_per_role)
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        observation_space=probe.observation_spaces[agent],
        action_space=probe.action_spaces[agent],
        model_config={"fcnet_hiddens": [128, 128], "fcnet_activation": "tanh"},
    )
    config = (
        PPOConfig()
        # RLlib's env check steps with unmasked random actions, which the games refuse as illegal
        .environment(env=rllib_env.GameEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(
            env_runner_cls=rllib_env.TimedEnvRunner,
            num_env_runners=env_runners,
            num_envs_per_env_runner=s.envs_per_runner,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=0)  # learning happens in this process
        .training(
            train_batch_size_per_learner=s.batch_size,
            minibatch_size=s.minibatch_size,
            num_epochs=5,
            lr=3e-4,
            gamma=0.995,
            lambda_=0.95,
            clip_param=0.2,
            entropy_coeff=0.01,
            use_kl_loss=False,
        )
        .multi_agent(
            policies=set(policies),
            policy_mapping_fn=rllib_env.role_policy if s.policy_per_role else rllib_env.shared_policy,
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={policy: module for policy in policies}))
        .debugging(seed=s.seed)
    )
    return config.build_algo()


def read_iteration(
    result: dict, previous: Iteration | None, s: Settings, env_runners: int, seconds: float
) -> Iteration:
    """One iteration's figures from RLlib's result dict."""
    from hidden_role_envs.training.rllib_env import SAMPLING_SECONDS, role_of

    runners = result["env_runners"]
    steps = int(result["num_env_steps_sampled_lifetime"])
    sampling_seconds = float(runners[SAMPLING_SECONDS])
    new_steps = steps - (previous.env_steps if previous else 0)
    new_seconds = sampling_seconds - (previous.sampling_seconds if previous else 0.0)
    per_runner = new_steps / new_seconds if new_seconds > 0 else math.nan
    # an episode's return adds up every seat's; RLlib averages both over its last 100 episodes
    returns = {"all": runners.get("episode_return_mean", math.nan) / s.num_players}
    if s.policy_per_role:
        by_role: dict[str, list[float]] = {}
        for agent_id, value in runners.get("agent_episode_returns_mean", {}).items():
            by_role.setdefault(role_of(agent_id), []).append(value)
        returns.update({role: _mean(values) for role, values in sorted(by_role.items())})
    return Iteration(
        number=int(result["training_iteration"]),
        env_steps=steps,
        episodes=int(runners.get("num_episodes_lifetime", 0)),
        returns=returns,
        sampling_seconds=sampling_seconds,
        steps_per_second=per_runner * max(env_runners, 1),
        steps_per_second_per_runner=per_runner,
        seconds=seconds,
    )


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def format_iteration(it: Iteration) -> str:
    roles = [f"{role} {value:+.2f}" for role, value in it.returns.items() if role != "all"]
    returns = f"{it.returns['all']:+.3f}" + (f" ({', '.join(roles)})" if roles else "")
    return (f"iter {it.number:>4}  env steps {it.env_steps:>9,}  episodes {it.episodes:>7,}  "
            f"return/seat {returns}  sampling {it.steps_per_second:,.0f} steps/s "
            f"({it.steps_per_second_per_runner:,.0f} per runner)  {it.seconds:.1f} s")


def write_progress(path: str, iterations: list[Iteration]) -> None:
    roles = list(iterations[-1].returns)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["iteration", "env_steps", "episodes"] + [f"return_{role}" for role in roles]
                        + ["steps_per_second", "steps_per_second_per_runner", "iteration_seconds"])
        for it in iterations:
            writer.writerow([it.number, it.env_steps, it.episodes] + [f"{it.returns.get(r, math.nan):.4f}" for r in roles]
                            + [f"{it.steps_per_second:.1f}", f"{it.steps_per_second_per_runner:.1f}",
                               f"{it.seconds:.2f}"])


def fixed_role_games() -> list[str]:
    return [name for name, game in registry.GAMES.items() if game.fixed_roles is not None]


def policy_ids(game: str, policy_per_role: bool) -> tuple[str, ...]:
    from hidden_role_envs.training.rllib_env import SHARED_POLICY

    return registry.GAMES[game].fixed_roles.names if policy_per_role else (SHARED_POLICY,)


class ModulePolicy:
    """Trained RLModules as a table policy: the most likely legal action (the module masks the rest).

    With roles, a seat's role is read from its observation, as during training.
    """

    def __init__(self, modules: dict, game: str, num_players: int):
        import torch

        from hidden_role_envs.training.rllib_env import SHARED_POLICY

        self.torch = torch
        self.modules = modules
        self.read_role = registry.GAMES[game].fixed_roles.role_of if SHARED_POLICY not in modules else None
        self.fields = registry.make(game, num_players=num_players).unwrapped.observation_fields

    @classmethod
    def from_checkpoint(cls, path: str, game: str, num_players: int, policy_per_role: bool = False) -> ModulePolicy:
        """The policies of a checkpoint written by training (`checkpoints/step_<n>/`)."""
        from ray.rllib.core.rl_module.rl_module import RLModule

        folder = os.path.join(os.path.abspath(path), "learner_group", "learner", "rl_module")
        modules = {policy: RLModule.from_checkpoint(os.path.join(folder, policy))
                   for policy in policy_ids(game, policy_per_role)}
        return cls(modules, game, num_players)

    def __call__(self, observation: dict) -> int:
        from hidden_role_envs.training.rllib_env import SHARED_POLICY

        policy = self.read_role(observation["observation"], self.fields) if self.read_role else SHARED_POLICY
        batch = {"obs": {
            "observations": self.torch.as_tensor(observation["observation"][None]),
            "action_mask": self.torch.as_tensor(observation["action_mask"][None], dtype=self.torch.float32),
        }}
        with self.torch.no_grad():
            logits = self.modules[policy].forward_inference(batch)["action_dist_inputs"]
        return int(logits[0].argmax())


def train(s: Settings, env_runners: int) -> tuple[list[Iteration], str, dict[str, Row]]:
    """Train until `s.timesteps` env steps; return the iterations, the last checkpoint and the final evaluation."""
    import torch

    torch.set_num_threads(1)  # a small network learns fastest on one thread; the runners use the other cores
    algorithm = build_algorithm(s, env_runners)
    os.makedirs(os.path.join(s.out, "checkpoints"), exist_ok=True)
    iterations: list[Iteration] = []
    checkpoint = ""
    try:
        while not iterations or iterations[-1].env_steps < s.timesteps:
            started = time.perf_counter()
            result = algorithm.train()
            it = read_iteration(result, iterations[-1] if iterations else None, s, env_runners,
                                time.perf_counter() - started)
            iterations.append(it)
            print(format_iteration(it), flush=True)
            write_progress(os.path.join(s.out, "progress.csv"), iterations)
            if it.env_steps >= s.timesteps or it.number % s.checkpoint_every == 0:
                checkpoint = os.path.abspath(os.path.join(s.out, "checkpoints", f"step_{it.env_steps}"))
                algorithm.save_to_path(checkpoint)
        if s.final_games:
            modules = {policy: algorithm.get_module(policy) for policy in policy_ids(s.game, s.policy_per_role)}
            final = evaluate_final(ModulePolicy(modules, s.game, s.num_players), s)
        else:
            final = {}
    finally:
        algorithm.stop()
    return iterations, checkpoint, final


def evaluate_final(policy: ModulePolicy, s: Settings) -> dict[str, Row]:
    """The trained policy in one seat against each kind of opponent, written to evaluation.csv as train does."""
    final = {
        kind: evaluate(s.game, s.num_players, [policy, kind], s.final_games, s.seed + 1, baseline=False)[0]
        for kind in OPPONENT_KINDS
    }
    baselines = random_baselines(s.game, s.num_players, s.final_games, s.seed + 1)
    write_final(os.path.join(s.out, "evaluation.csv"), s.game, s.num_players, s.timesteps, s.seed, final, baselines)
    return final


def main(argv: list[str] | None = None, prog: str = "python -m hidden_role_envs.training.rllib_train") -> int:
    try:
        settings = settings_from(build_parser(prog).parse_args(argv))
    except UsageError as error:
        print(f"train: error: {error}", file=sys.stderr)
        return 2
    try:
        import ray.rllib
    except ImportError:
        print("train: error: the rllib backend needs the rllib extra: pip install 'hidden_role_envs[rllib]'",
              file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        env_runners = start_ray(settings)
    except UsageError as error:
        print(f"train: error: {error}", file=sys.stderr)
        return 2
    try:
        iterations, checkpoint, final = train(settings, env_runners)
    except KeyboardInterrupt:
        print("train: interrupted", file=sys.stderr)
        return 130
    finally:
        import ray

        ray.shutdown()
    if final:
        print(format_final(settings.game, settings.num_players, settings.final_games, final))
    minutes = (time.perf_counter() - started) / 60
    print(f"wrote {settings.out}/: progress.csv, checkpoints/ (the last: {os.path.basename(checkpoint)})"
          f"{', evaluation.csv' if final else ''} ({len(iterations)} iterations, {minutes:.1f} min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
