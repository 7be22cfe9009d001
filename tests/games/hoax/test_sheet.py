"""The character sheet is data: a replacement is played as given, a malformed one is refused saying why."""

import copy

import pytest

from hidden_role_envs import hoax_v1
from hidden_role_envs.games.hoax.sheet import HOUSE_SHEET


def sheet_with(row_index: int, row) -> list:
    rows = list(copy.deepcopy(HOUSE_SHEET))
    rows[row_index] = row
    return rows


MALFORMED = [
    ("not a sequence", {"Butler": ()}, ["character_sheet must be a sequence of 7 rows"]),
    ("a string", "Butler", ["character_sheet must be a sequence"]),
    ("six rows", list(HOUSE_SHEET[:6]), ["7 rows", "got 6"]),
    ("a row of two", sheet_with(0, ("Butler", {"": ("take Cash",)})), ["row 0", "(name, privilege, immune_to)"]),
    ("an empty name", sheet_with(1, ("", {"": ("take Cash",)}, ())), ["row 1", "non-empty string"]),
    ("a repeated name", sheet_with(1, ("Butler", {"": ("take Cash",)}, ())), ["'Butler' appears more than once"]),
    ("no privilege", sheet_with(3, ("Lover", {}, ())), ["Lover", "non-empty mapping"]),
    ("a privilege that is a list", sheet_with(3, ("Lover", ["take Cash"], ())), ["Lover", "non-empty mapping"]),
    ("an unknown effect", sheet_with(3, ("Lover", {"": ("steal Cash",)}, ())),
     ["Lover, option ''", "unknown effect 'steal Cash'", "take R from named player"]),
    ("an unknown resource", sheet_with(3, ("Lover", {"": ("take Gold",)}, ())), ["unknown effect 'take Gold'"]),
    ("effects given as one string", sheet_with(3, ("Lover", {"": "take Cash"}, ())), ["Lover", "tuple of effects"]),
    ("an option with no effects", sheet_with(3, ("Lover", {"": ()}, ())), ["Lover", "non-empty tuple"]),
    ("several options, one unlabelled", sheet_with(3, ("Lover", {"": ("take Cash",), "b": ("take Evidence",)}, ())),
     ["Lover", "non-empty label"]),
    ("a label that is not a string", sheet_with(3, ("Lover", {1: ("take Cash",)}, ())),
     ["Lover", "labels must be strings"]),
    ("an unknown immunity", sheet_with(3, ("Lover", {"": ("take Cash",)}, ("Maid",))),
     ["Lover", "unknown character 'Maid'"]),
    ("immunities given as one string", sheet_with(3, ("Lover", {"": ("take Cash",)}, "Chef")),
     ["Lover", "immune_to must be a tuple"]),
    ("two options played the same way",
     sheet_with(2, ("Ex-Wife", {"Cash": ("take Cash",), "x": ("take Evidence",), "": ("take named type",)}, ())),
     ["non-empty label"]),
    ("a label clashing with a named type",
     sheet_with(2, ("Ex-Wife", {"Cash": ("take Cash",), "neighbours": ("take named type from each neighbour",),
                                "neighbours Cash": ("take Evidence",)}, ())),
     ["'claim Ex-Wife neighbours Cash'", "distinct labels"]),
]


@pytest.mark.parametrize("name, sheet, fragments", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_sheet_is_refused_saying_what_is_wrong(name, sheet, fragments):
    with pytest.raises(ValueError) as error:
        hoax_v1.env(character_sheet=sheet)
    for fragment in fragments:
        assert fragment in str(error.value), str(error.value)


def test_the_house_sheet_is_the_default():
    assert hoax_v1.env(character_sheet=HOUSE_SHEET).unwrapped.actions.names == hoax_v1.env().unwrapped.actions.names


def play_names(env, names):
    for name in names:
        env.step(env.unwrapped.string_to_action(name))


def test_a_replacement_sheet_changes_names_privileges_and_immunities():
    sheet = sheet_with(0, ("Maid", {"dust": ("take Prestige", "named player takes Cash"),
                                    "steal": ("take named type from each other player",)}, ("Chef",)))
    env = hoax_v1.env(num_players=3, character_sheet=sheet)
    env.reset(seed=0, options={"setup": {"characters": ["Maid", "Chef", "Lover"], "first_player": 0}})
    names = env.unwrapped.actions.names
    assert "claim Maid dust +2" in names and "claim Maid steal Evidence" in names
    assert not any("Butler" in name for name in names)
    assert "accuse +1 as Maid" in names and "immune as Maid" in names
    play_names(env, ["pick Cash", "pick Cash", "pick Cash", "claim Maid dust +2", "no hoax", "no hoax"])
    table = env.unwrapped.engine.table
    assert table.resources == [[1, 0, 1], [1, 0, 0], [2, 0, 0]]
    play_names(env, ["end turn", "claim Chef Prestige +2", "no hoax", "no hoax"])
    # The Maid is immune to the Chef in this sheet, so seat 0 is asked before its Prestige is swapped.
    assert env.agent_selection == "player_0"
    legal = [env.unwrapped.action_to_string(int(a)) for a in env.observe("player_0")["action_mask"].nonzero()[0]]
    assert legal == ["immune as Maid", "immune as Distant Cousin", "no immunity"]


def test_the_observation_follows_the_sheet_options():
    sheet = sheet_with(3, ("Lover", {"a": ("take Cash",), "b": ("take Evidence",), "c": ("take Prestige",),
                                     "d": ("take named type",)}, ("Son-in-Law",)))
    env = hoax_v1.env(num_players=4, character_sheet=sheet)
    fields = env.unwrapped.observation_fields
    assert fields["claim_option"].stop - fields["claim_option"].start == 4
    house = hoax_v1.env(num_players=4).unwrapped.observation_fields
    assert house["claim_option"].stop - house["claim_option"].start == 3


def test_text_names_the_characters_of_the_env_sheet():
    sheet = sheet_with(0, ("Maid", {"": ("take Cash", "named player takes Prestige")}, ()))
    custom = hoax_v1.env(num_players=3, character_sheet=sheet, render_mode="ansi")
    house = hoax_v1.env(num_players=3, render_mode="ansi")
    for env in (custom, house):
        env.reset(seed=0, options={"setup": {"characters": [0, 1, 2], "first_player": 0}})
        play_names(env, ["pick Cash", "pick Cash", "pick Cash"])
    play_names(custom, ["claim Maid +1"])
    play_names(house, ["claim Butler +1"])
    assert "claims to be the Maid" in custom.render_text(1)
    assert "claims to be the Butler" in house.render_text(1)


def test_envs_on_equal_sheets_share_one_action_table_and_others_get_their_own():
    house = hoax_v1.env(num_players=4).unwrapped.actions
    assert hoax_v1.env(num_players=4).unwrapped.actions is house
    assert hoax_v1.env(num_players=4, character_sheet=list(HOUSE_SHEET)).unwrapped.actions is house
    renamed = sheet_with(0, ("Maid", *HOUSE_SHEET[0][1:]))
    other = hoax_v1.env(num_players=4, character_sheet=renamed).unwrapped.actions
    assert other is not house and "claim Maid +1" in other.names
    again = sheet_with(0, ("Maid", *HOUSE_SHEET[0][1:]))
    assert hoax_v1.env(num_players=4, character_sheet=again).unwrapped.actions is other
    assert hoax_v1.env(num_players=5).unwrapped.actions is not house
