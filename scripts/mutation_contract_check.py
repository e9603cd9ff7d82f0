"""The contract search's survivors, checked by their answers: find_contract under each mutant of
mutants/ (after a mutation run) against the original, on hands built to meet long suited runs, sets
and many wilds, across the shipped rulesets and house variants. Prints, per mutant, how many answers
changed and how: "flip" (yes became no, or no yes), "error", or "arrangement" (another legal
arrangement shown). Used to judge survivors for scripts/mutation_equivalents.toml.

    SEED=3 .venv/bin/python scripts/mutation_contract_check.py 6000 scorekeeper.rules.contract.x_...
"""

import os
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mutants"))
os.environ["MUTANT_UNDER_TEST"] = ""
from scorekeeper.rules.cards import NATURAL_RANKS, Card, Rank, Suit
from scorekeeper.rules.contract import find_contract
from scorekeeper.rules.rulesets import parse_ruleset

DATA = Path(__file__).resolve().parents[1] / "scorekeeper" / "rules" / "data"


def text(i):
    return (DATA / f"{i}.toml").read_text()


tcr = text("ten-card-rummy")
RULESETS = {
    "ten-pennies": parse_ruleset(text("ten-pennies")),
    "pcio": parse_ruleset(text("ten-pennies-pcio")),
    "tcr": parse_ruleset(tcr),
    # house variants that reach branches the shipped rulesets do not
    "tcr-no-ratio": parse_ruleset(tcr.replace("wilds_at_most_naturals = true", "wilds_at_most_naturals = false")),
    "tcr-nodup": parse_ruleset(
        tcr.replace("wilds_at_most_naturals = true", "wilds_at_most_naturals = false\nno_duplicates = true")
    ),
    "tcr-wildsets": parse_ruleset(
        tcr.replace("wild_rank_sets = false", "wild_rank_sets = true").replace(
            "wilds_at_most_naturals = true", "wilds_at_most_naturals = false"
        )
    ),
    "runs-only": parse_ruleset(
        tcr.replace("wilds_at_most_naturals = true", "wilds_at_most_naturals = false").replace(
            'meld_kinds = ["set", "run"]', 'meld_kinds = ["run"]'
        )
    ),
    "tcr-nodup-ratio": parse_ruleset(tcr.replace("contract_exact", "no_duplicates = true\ncontract_exact")),
    "tcr-perkind": parse_ruleset(re.sub(r'(wilds = \["2", "JKR"\])', r"\1\nwild_limit_per_kind = 1", tcr)),
    "tcr-limit2-nodup": parse_ruleset(
        re.sub(r'(wilds = \["2", "JKR"\])', r"\1\nwild_limit = 2", tcr).replace(
            "wild_rank_sets = false", "wild_rank_sets = true\nno_duplicates = true"
        )
    ),
}
SUITS = list(Suit)


def hand(rng, ruleset, number):
    cards = []
    rule = ruleset.round(number)
    wild_ranks = sorted(rule.wilds, key=lambda r: r.value)
    if "run" in ruleset.meld_kinds and rng.random() < 0.8:
        for _ in range(rng.choice([1, 1, 2])):
            suit = rng.choice(SUITS)
            start = rng.randrange(13)
            length = rng.randint(3, 13)
            for i in range(length):
                if rng.random() < 0.7:
                    cards.append(Card(NATURAL_RANKS[(start + i) % 13], suit))
    for _ in range(rng.choice([0, 1, 2, 3])):
        rank = rng.choice(NATURAL_RANKS)
        for _ in range(rng.randint(1, 5)):
            cards.append(Card(rank, rng.choice(SUITS[: rng.randint(1, 4)])))
    for _ in range(rng.choice([0, 1, 2, 3, 4, 5, 6])):
        r = rng.choice(wild_ranks)
        cards.append(Card(Rank.JOKER) if r is Rank.JOKER else Card(r, rng.choice(SUITS)))
    for _ in range(rng.randint(0, 4)):
        cards.append(Card(rng.choice(NATURAL_RANKS), rng.choice(SUITS)))
    rng.shuffle(cards)
    return cards[: rng.randint(3, 16)]


def cases(n, seed=1):
    rng = random.Random(seed)
    out = []
    keys = list(RULESETS)
    while len(out) < n:
        key = rng.choice(keys)
        rs = RULESETS[key]
        number = rng.randint(1, len(rs.rounds))
        if rs.round(number).contract is None:
            continue
        h = hand(rng, rs, number)
        if h:
            out.append((key, number, h))
    return out


def main():
    n = int(sys.argv[1])
    names = sys.argv[2:]
    hands = cases(n, int(os.environ.get("SEED", "1")))
    os.environ["MUTANT_UNDER_TEST"] = ""
    want = [find_contract(RULESETS[k], num, h) for k, num, h in hands]
    print("valid:", sum(v.valid for v in want), "of", len(want), flush=True)
    for name in names:
        os.environ["MUTANT_UNDER_TEST"] = name
        kinds = {}
        first = {}
        for (k, num, h), w in zip(hands, want, strict=True):
            try:
                got = find_contract(RULESETS[k], num, h)
            except Exception as e:
                got = repr(e)
            if got != w:
                kind = "error" if isinstance(got, str) else "flip" if got.valid != w.valid else "arrangement"
                kinds[kind] = kinds.get(kind, 0) + 1
                first.setdefault(kind, (k, num, " ".join(str(c) for c in h), w, got))
        print(name.split(".")[-1], kinds or "same", flush=True)
        for kind in ("flip", "error"):
            if kind in first:
                print("   ", kind, first[kind], flush=True)


main()
