"""The default locations have the properties the rules file asks for; user sets are checked."""

from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from hidden_role_envs.games.spyfall.locations import ATTRIBUTES, DEFAULT_LOCATIONS, Location, LocationSet

RULEBOOK_LOCATIONS = {
    "Airplane", "Bank", "Beach", "Cathedral", "Circus Tent", "Corporate Party", "Crusader Army", "Casino", "Day Spa",
    "Embassy", "Hospital", "Hotel", "Military Base", "Movie Studio", "Ocean Liner", "Passenger Train", "Pirate Ship",
    "Polar Station", "Police Station", "Restaurant", "School", "Space Station", "Submarine", "Supermarket", "Theater",
    "University",
}


def matrix() -> np.ndarray:
    return np.array([[a in loc.attributes for a in ATTRIBUTES] for loc in DEFAULT_LOCATIONS], dtype=int)


def test_the_26_locations_of_the_box_with_7_distinct_named_roles_each():
    assert {loc.name for loc in DEFAULT_LOCATIONS} == RULEBOOK_LOCATIONS
    assert len(DEFAULT_LOCATIONS) == 26
    for loc in DEFAULT_LOCATIONS:
        assert len(loc.roles) == 7 and len(set(loc.roles)) == 7, loc.name
        assert all(isinstance(r, str) and r.strip() == r and r for r in loc.roles)


def test_about_16_to_24_named_attributes_every_one_in_use():
    assert 16 <= len(ATTRIBUTES) <= 24
    assert len(set(ATTRIBUTES)) == len(ATTRIBUTES)
    used = set().union(*(loc.attributes for loc in DEFAULT_LOCATIONS))
    assert used == set(ATTRIBUTES)


def test_every_two_locations_differ_in_at_least_two_attributes():
    m = matrix()
    distances = [int((m[i] != m[j]).sum()) for i, j in combinations(range(len(m)), 2)]
    assert min(distances) >= 2


def test_attributes_are_listed_from_common_to_rare():
    counts = matrix().sum(axis=0)
    assert list(counts) == sorted(counts, reverse=True)
    assert counts[0] >= 20  # nearly everywhere: a safe question
    assert counts[-1] <= 2  # a pointed question
    assert len(set(counts)) >= 8  # and many levels in between


def test_no_location_is_everything_or_nothing():
    per_location = matrix().sum(axis=1)
    assert per_location.min() >= 3 and per_location.max() <= len(ATTRIBUTES) // 2


def test_the_location_set_matrix_follows_the_data():
    places = LocationSet(DEFAULT_LOCATIONS, ATTRIBUTES, num_players=8)
    assert places.matrix.shape == (26, len(ATTRIBUTES))
    assert np.array_equal(places.matrix, matrix())
    assert places.max_roles == 7


def test_user_locations_may_be_plain_tuples_and_need_a_role_per_non_spy():
    places = [("Attic", ["Ghost", "Owner", "Mouse"], ["dark"]), ("Garden", ["Gardener", "Bee", "Cat"], ["sunny"])]
    checked = LocationSet(places, ("dark", "sunny"), num_players=4)
    assert checked.locations[0] == Location("Attic", ("Ghost", "Owner", "Mouse"), frozenset({"dark"}))
    with pytest.raises(ValueError, match="5 players need at least 4"):
        LocationSet(places, ("dark", "sunny"), num_players=5)


def test_duplicate_attribute_names_in_a_location_are_refused():
    places = [("Attic", ["A", "B"], ["dark", "dark"]), ("Garden", ["A", "B"], ["sunny"])]
    with pytest.raises(ValueError, match="attributes of 'Attic' must be distinct"):
        LocationSet(places, ("dark", "sunny"), num_players=3)


def test_the_attribute_counts_quoted_in_the_docs():
    counts = Counter(a for loc in DEFAULT_LOCATIONS for a in loc.attributes)
    assert counts["indoors"] == 22 and counts["cold"] == 2
