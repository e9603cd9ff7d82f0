"""The bowl is a party of its own kind (issue 39): never a name. A player may be called "the bowl",
and a paper night with them settles, shows on the page and answers in the API; a payment to oneself
is refused in words. RULES.md: what is still owed is the nets less the payments made."""

from __future__ import annotations

from support import Api, csrf_token

THE_BOWL = "the bowl"
PLAYERS = ["Ann", THE_BOWL, "Cy", "Di"]


def tie_night(api: Api) -> tuple[int, int]:
    """A paper night of one 1¢ game: Ann and "the bowl" go out in turn and tie on 0, Cy is caught
    with one card and Di with two every round: 21 pennies, 10 each, 1 left in the (real) bowl."""
    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "night": night, "first_dealer": "Ann"}
    gid = api.call("POST", "/api/games", body, 201)["id"]
    for number in range(7):
        out, other = ("Ann", THE_BOWL) if number % 2 == 0 else (THE_BOWL, "Ann")
        api.round(gid, out, {other: "", "Cy": "5", "Di": "5 5"})
    return night, gid


def owed(report: dict) -> list[tuple[str, bool, str, bool, int]]:
    return sorted((p["from"], p["from_bowl"], p["to"], p["to_bowl"], p["cents"]) for p in report["still_owed"])


def test_a_player_named_the_bowl_settles_beside_the_bowl(api: Api, client):
    night, _ = tie_night(api)
    report = api.call("GET", f"/api/nights/{night}")
    assert report["nets"] == {"Ann": 10, THE_BOWL: 10, "Cy": -7, "Di": -14}
    assert report["left_in_bowls"] == 1
    # Worked by hand: Cy owes 7, Di 14; Ann and the player "the bowl" are owed 10 each; Di's last
    # cent goes into the real bowl, which holds the odd penny.
    assert owed(report) == [
        ("Cy", False, THE_BOWL, False, 7),
        ("Di", False, "Ann", False, 10),
        ("Di", False, THE_BOWL, False, 3),
        ("Di", False, THE_BOWL, True, 1),
    ]
    page = client.get(f"/nights/{night}")
    assert page.status_code == 200
    assert "<strong>Di</strong> puts $0.01 into the bowl" in page.text  # the real bowl, said as what it is
    assert "<strong>Di</strong> pays <strong>the bowl</strong> $0.03" in page.text  # the player "the bowl"


def test_payments_to_the_player_and_to_the_bowl_are_kept_apart(api: Api, client):
    night, _ = tie_night(api)
    api.call("POST", f"/api/nights/{night}/payments", {"from": "Di", "to": THE_BOWL, "cents": 3}, 201)
    after = api.call("POST", f"/api/nights/{night}/payments", {"from": "Di", "to_bowl": True, "cents": 1}, 201)
    made = [(p["from"], p["to"], p["to_bowl"], p["cents"]) for p in after["payments_made"]]
    assert made == [("Di", THE_BOWL, False, 3), ("Di", THE_BOWL, True, 1)]
    assert owed(after) == [("Cy", False, THE_BOWL, False, 7), ("Di", False, "Ann", False, 10)]
    # The page's own Mark paid button for the player "the bowl" pays the player, not the bowl.
    page = client.get(f"/nights/{night}").text
    form = {
        "csrf_token": csrf_token(page),
        "payer": "player:Cy",
        "payee": f"player:{THE_BOWL}",
        "amount": "7",
        "entry_key": "k1",
    }
    assert client.post(f"/nights/{night}/paid", data=form).status_code == 302
    assert owed(api.call("GET", f"/api/nights/{night}")) == [("Di", False, "Ann", False, 10)]


def test_a_payment_to_oneself_is_refused_in_words(api: Api):
    night, _ = tie_night(api)
    for body in ({"from": "Di", "to": "di"}, {"from_bowl": True, "to_bowl": True}):
        refused = api.call("POST", f"/api/nights/{night}/payments", {**body, "cents": 5}, 400)
        assert refused["error"] == "a payment goes from one party to another, not to itself"
    assert api.call("GET", f"/api/nights/{night}")["payments_made"] == []


def test_a_payment_is_1_cent_to_ten_million_dollars(api: Api):
    """The most a payment may be is 10⁹ cents: that much is taken, a cent more or nothing is refused in
    words (a typing slip of many zeros must not stand as money handed over)."""
    night, _ = tie_night(api)
    paid = api.call("POST", f"/api/nights/{night}/payments", {"from": "Cy", "to": "Ann", "cents": 10**9}, 201)
    assert [p["cents"] for p in paid["payments_made"]] == [10**9]
    for cents in (10**9 + 1, 0):
        refused = api.call("POST", f"/api/nights/{night}/payments", {"from": "Cy", "to": "Ann", "cents": cents}, 400)
        assert refused["error"] == f"a payment is 1 to 1000000000 cents, not {cents}"


def test_a_blank_name_is_nobody_s_even_beside_a_player_called_xxxx(api: Api):
    """A payment from "" (a page's button sending "player:" with no name) is refused in words: a blank
    is no player's name and no stand-in for one, whatever the players are called."""
    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    body = {"ruleset": "ten-pennies", "players": ["Ann", "XXXX", "Cy"], "night": night, "first_dealer": "Ann"}
    gid = api.call("POST", "/api/games", body, 201)["id"]
    for _ in range(7):
        api.round(gid, "Ann", {"XXXX": "5", "Cy": ""})
    refused = api.call("POST", f"/api/nights/{night}/payments", {"from": "", "to": "Ann", "cents": 5}, 400)
    assert refused["error"] == f"'' is not a player of night {night} (nor the bowl)"
    assert api.call("GET", f"/api/nights/{night}")["payments_made"] == []
