"""Makes the databases of earlier versions that tests/test_upgrades.py opens: run by hand, once per
version, with that version's code on the path (its git checkout), never by the tests:

    git worktree add /tmp/old <commit>
    cd /tmp/old && PYTHONPATH=/tmp/old /work/main/.venv/bin/python /work/main/tests/data/old-databases/make.py \
        /work/main/tests/data/old-databases/<name>

writes <name>.sqlite (the version's own database, played through its own API: a night with a locked game,
a tie whose odd penny is carried, a corrected round) and <name>.json (what that version said of each game
and of the night), so the test can compare what the new version reads back."""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from pathlib import Path

from scorekeeper import create_app

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
# A copy of tests/support.py's GAME, not an import: support imports this version's scorekeeper, and this
# script must run with an earlier version's on the path.
GAME = [  # who went out, what the others were caught with
    ("Ann", {"Bob": "K 7 7 2", "Cy": "JKR A 3", "Di": "10 J Q"}),
    ("Bob", {"Ann": "5", "Cy": "", "Di": "K K"}),
    ("Cy", {"Ann": "2 2", "Bob": "A", "Di": "3 4 5"}),
    ("Di", {"Ann": "", "Bob": "JKR", "Cy": "9"}),
    ("Ann", {"Bob": "Q", "Cy": "Q", "Di": "Q"}),
    ("Bob", {"Ann": "10", "Cy": "8 8", "Di": ""}),
    ("Cy", {"Ann": "7", "Bob": "6", "Di": "A A"}),
]


def main(out: Path) -> None:
    folder = Path(tempfile.mkdtemp())
    database = folder / "scorekeeper.sqlite"
    app = create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "old", "RULESETS_DIR": str(folder)})
    client = app.test_client()
    night = client.post("/api/nights", json={"name": "O'Brien's"})
    night_id = night.get_json()["id"] if night.status_code == 201 else None
    in_night = {"night": night_id} if night_id else {}
    games = []
    # A whole game under a PIN (writes need its token), a tie whose odd penny is carried, and a game
    # with a corrected round.
    locked = client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS, "pin": "2468", **in_night})
    gid = locked.get_json()["id"]
    token = client.post(f"/api/games/{gid}/unlock", json={"pin": "2468"}).get_json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    client.post(f"/api/games/{gid}/buys", json={"player": "Cy"}, headers=auth)
    for went_out, caught in GAME:
        answer = client.post(f"/api/games/{gid}/rounds", json={"went_out": went_out, "caught": caught}, headers=auth)
        assert answer.status_code == 201, answer.get_json()
    games.append(gid)
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "first_dealer": "Ann", **in_night}
    tie = client.post("/api/games", json=body, headers=auth).get_json()["id"]  # (later: the PIN locks the night)
    for number in range(7):  # Ann and Bob tie on 0: 21 pennies, 10 each, 1 carried
        first, other = ("Ann", "Bob") if number % 2 == 0 else ("Bob", "Ann")
        caught = {other: "", "Cy": "5", "Di": "5 5"}
        client.post(f"/api/games/{tie}/rounds", json={"went_out": first, "caught": caught}, headers=auth)
    games.append(tie)
    rummy = client.post("/api/games", json={"ruleset": "ten-card-rummy", "players": PLAYERS, **in_night}, headers=auth)
    rid = rummy.get_json()["id"]
    for went_out, caught in GAME[:2]:
        client.post(f"/api/games/{rid}/rounds", json={"went_out": went_out, "caught": caught}, headers=auth)
    correction = {"went_out": "Ann", "caught": GAME[0][1] | {"Bob": "K"}}
    corrected = client.put(f"/api/games/{rid}/rounds/1", json=correction, headers=auth)
    assert corrected.status_code == 200, corrected.get_json()
    games.append(rid)
    states = [client.get(f"/api/games/{game}").get_json() for game in games]
    said = [
        {
            "id": g["id"],
            "ruleset": g["ruleset"],
            "rounds": len(g["rounds"]),
            "points": {p["name"]: p["points"] for p in g["players"]},
            "pennies_paid": {p["name"]: p["pennies_paid"] for p in g["players"]},
            "buys_left": {p["name"]: p["buys_left"] for p in g["players"]},
            "winners": g["winners"],
            "finished": g["finished"],
            "money": g["money"],
        }
        for g in states
    ]
    report = client.get(f"/api/nights/{night_id}").get_json() if night_id else None
    out.with_suffix(".sqlite").unlink(missing_ok=True)
    with sqlite3.connect(database) as source, sqlite3.connect(out.with_suffix(".sqlite")) as copy:
        source.backup(copy)  # whole, with whatever the write-ahead log still holds
    out.with_suffix(".json").write_text(
        json.dumps({"night": night_id, "games": said, "night_report": report}, indent=1) + "\n"
    )
    print(f"{out.with_suffix('.sqlite')}: {len(said)} games")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
