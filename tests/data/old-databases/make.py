"""Makes the databases of earlier versions that tests/test_upgrades.py opens: run by hand, once per
version, with that version's code on the path (its git checkout), never by the tests:

    git worktree add /tmp/old <commit>
    cd /tmp/old && PYTHONPATH=/tmp/old /work/main/.venv/bin/python /work/main/tests/data/old-databases/make.py \
        /work/main/tests/data/old-databases/<name>

writes <name>.sqlite (the version's own database, played through its own API) and <name>.json (what
that version said each game's totals were), so the test can compare what the new version reads back."""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from pathlib import Path

from scorekeeper import create_app

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
GAME = [  # who went out, what the others were caught with (tests/support.py's GAME)
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
    games = []
    for ruleset, rounds in (("ten-pennies", GAME), ("ten-pennies", GAME[:3]), ("ten-card-rummy", GAME[:2])):
        body = {"ruleset": ruleset, "players": PLAYERS, **({"night": night_id} if night_id else {})}
        game = client.post("/api/games", json=body).get_json()
        client.post(f"/api/games/{game['id']}/buys", json={"player": "Cy"})
        for went_out, caught in rounds:
            answer = client.post(f"/api/games/{game['id']}/rounds", json={"went_out": went_out, "caught": caught})
            assert answer.status_code == 201, answer.get_json()
        games.append(client.get(f"/api/games/{game['id']}").get_json())
    said = [{"id": g["id"], "ruleset": g["ruleset"], "rounds": len(g["rounds"]),
             "points": {p["name"]: p["points"] for p in g["players"]},
             "pennies_paid": {p["name"]: p["pennies_paid"] for p in g["players"]},
             "buys_left": {p["name"]: p["buys_left"] for p in g["players"]}, "winners": g["winners"],
             "finished": g["finished"]} for g in games]  # fmt: skip
    out.with_suffix(".sqlite").unlink(missing_ok=True)
    with sqlite3.connect(database) as source, sqlite3.connect(out.with_suffix(".sqlite")) as copy:
        source.backup(copy)  # whole, with whatever the write-ahead log still holds
    out.with_suffix(".json").write_text(json.dumps({"night": night_id, "games": said}, indent=1) + "\n")
    print(f"{out.with_suffix('.sqlite')}: {len(said)} games")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
