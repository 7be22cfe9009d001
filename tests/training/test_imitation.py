"""The warm start: the scripted player's recorded decisions, and a policy fitted to them."""

import numpy as np
import pytest

from hidden_role_envs.training import imitation

pytest.importorskip("sb3_contrib")


@pytest.fixture(scope="module")
def demos():
    return imitation.collect("hoax", 3, ["random", "scripted"], decisions=1500, seed=3, gamma=1.0, processes=2)


def test_demonstrations_are_legal_decisions_with_their_outcomes(demos):
    rows = len(demos.actions)
    assert rows >= 1500 and demos.games % imitation.GAMES_PER_TASK == 0
    assert demos.observations.shape[0] == demos.masks.shape[0] == demos.returns.shape[0] == rows
    assert demos.masks[np.arange(rows), demos.actions].all()
    # undiscounted returns of games that end in a win or a loss (eliminations pay along the way)
    assert np.isin(np.round(demos.returns, 6), (-1.0, 0.0, 1.0)).all()


def test_recording_is_deterministic_under_a_seed(demos):
    again = imitation.collect("hoax", 3, ["random", "scripted"], decisions=1500, seed=3, gamma=1.0, processes=1)
    assert np.array_equal(demos.actions, again.actions)
    assert np.array_equal(demos.observations, again.observations)
    other = imitation.collect("hoax", 3, ["random", "scripted"], decisions=1500, seed=4, gamma=1.0, processes=1)
    assert not np.array_equal(demos.actions[:50], other.actions[:50])


def test_the_fitted_policy_picks_what_the_scripted_player_picked(demos):
    from sb3_contrib import MaskablePPO

    from hidden_role_envs.wrappers.single_seat import SingleSeatEnv

    model = MaskablePPO("MlpPolicy", SingleSeatEnv("hoax", num_players=3), seed=0, device="cpu")
    agreement = []
    imitation.imitate(model.policy, demos, epochs=15, seed=0,
                      on_epoch_done=lambda epoch, loss, agreed: agreement.append(agreed))
    assert len(agreement) == 15
    assert agreement[-1] > agreement[0] + 0.2
    chosen, _ = model.predict(demos.observations, action_masks=demos.masks, deterministic=True)
    by_chance = np.mean(1 / demos.masks.sum(axis=1))  # a uniformly random legal pick's agreement
    # the scripted player draws its bluffs at random, so its own greedy choice agrees with it only so often
    assert (chosen == demos.actions).mean() > by_chance + 0.3, by_chance


def test_rehearsing_pulls_the_policy_towards_the_demonstrations(demos):
    import torch
    from sb3_contrib import MaskablePPO

    from hidden_role_envs.wrappers.single_seat import SingleSeatEnv

    model = MaskablePPO("MlpPolicy", SingleSeatEnv("hoax", num_players=3), seed=0, device="cpu")

    def mean_log_prob():
        with torch.no_grad():
            _, log_prob, _ = model.policy.evaluate_actions(torch.as_tensor(demos.observations),
                                                           torch.as_tensor(demos.actions),
                                                           action_masks=torch.as_tensor(demos.masks))
        return float(log_prob.mean())

    before = mean_log_prob()
    imitation.rehearse(model.policy, demos, batches=40, rng=np.random.default_rng(0))
    assert mean_log_prob() > before + 0.2
    assert not model.policy.training  # back in evaluation mode, as PPO's rollouts expect
