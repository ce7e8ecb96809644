#!/usr/bin/env python3
"""Check an umpire audit bundle with nothing but Python's standard library.

    python3 checkbundle.py BUNDLE.tar [--commitment HEX] [--head N:HASH]

Written from the bundle's README.txt and docs/dice.md alone, so that a player
need not take `umpire verify` on trust. It checks the events' hash chain,
every revealed dice seed against the commitment, every die, every sealed part
revealed (hidden dice included) or lost, and that game.json, seeds.txt,
state-hashes.txt and orders/ say what the events say. Not checked: README.txt,
the text of results/ and the state hashes (recomputing those needs the rules).
Prints "FAILED: FILE: WHAT" for each problem and exits 1, or "OK: ..." and 0.
"""
import argparse
import datetime
import hashlib
import hmac
import json
import re
import struct
import sys
import tarfile

MAX_FILE, MAX_TOTAL, MAX_FILES = 64 << 20, 1 << 30, 200000  # what is read of the tar, as umpire
MAX_HASHES = 1 << 22  # SHA-256 steps from one seed back to the last that checked
MAX_DICE = 10000      # dice in one roll
HEX64 = re.compile(r"[0-9a-f]{64}\Z")
DICE = re.compile(r"([0-9]{1,6})d([0-9]{1,20})\Z")
LINE = {"seq", "type", "schema", "time", "unix_nano", "actor", "payload", "prev", "hash"}
FIXED = ["README.txt", "game.json", "events.jsonl", "seeds.txt", "state-hashes.txt"]
problems = []


def fail(file, what):
    problems.append("%s: %s" % (file, what))


def loads(text):
    """Strict JSON (no duplicate keys, NaN or Infinity), or None."""
    def pairs(kv):
        if len(set(k for k, _ in kv)) != len(kv):
            raise ValueError("duplicate key")
        return dict(kv)

    def refuse(constant):
        raise ValueError(constant)
    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=refuse)
    except (ValueError, RecursionError, TypeError):
        return None


def is_int(x, lo=-(1 << 63), hi=(1 << 63) - 1):
    return type(x) is int and lo <= x <= hi


def is_hex64(x):
    return isinstance(x, str) and HEX64.match(x) is not None


def rfc3339(ns):
    """unix_nano as RFC 3339 in UTC, without trailing zeros in the fraction."""
    s, frac = divmod(ns, 10**9)
    try:
        t = (datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=s)).isoformat()
    except OverflowError:
        return None
    return t + ("." + ("%09d" % frac).rstrip("0") if frac else "") + "Z"


def event_hash(prev, e):
    """README step 1."""
    def field(s):
        b = s.encode()
        return struct.pack(">Q", len(b)) + b
    return hashlib.sha256(b"umpire-event-v1\x00" + prev + struct.pack(">Q", e["seq"]) + field(e["type"]) +
                          struct.pack(">qq", e["schema"], e["unix_nano"]) + field(e["actor"]) +
                          field(e["payload"])).digest()


def face(seed, game, k, label, n, faces):
    """README step 3 (and docs/dice.md): die n of adjudication k."""
    msg, limit, retry = ("%s|%d|%s|%d" % (game, k, label, n)).encode(), (1 << 64) - (1 << 64) % faces, 0
    while True:
        d = hmac.new(seed, msg + (b"|retry|%d" % retry if retry else b""), hashlib.sha256).digest()
        for i in range(0, 32, 8):
            v = int.from_bytes(d[i:i + 8], "big")
            if v < limit:
                return v % faces + 1
        retry += 1


class Log:
    """What the events say, gathered in file order."""

    def __init__(self):
        self.events = []       # the lines of events.jsonl
        self.game = None       # game.created's payload
        self.chains = []       # each: commitment, length, from_k, good = (index, seed) last checked
        self.adjs = {}         # seq of turn.adjudicated -> (k, seed, {first die of a stand-in: dice})
        self.sealed = {}       # seq -> its commitment, while not revealed
        self.hidden = {}       # seq of sealed orders.accepted -> payload
        self.orders = {}       # orders/ file -> text, in the order they became public
        self.seeds, self.states, self.checked, self.dice = [], [], 0, 0

    def event(self, e, p):
        seq, t, where = e["seq"], e["type"], "event %d (%s)" % (e["seq"], e["type"])
        if t == "game.created":
            p = p if isinstance(p, dict) else {}
            dice = p.get("dice") if isinstance(p.get("dice"), dict) else {}
            if seq != 1 or not isinstance(p.get("game"), str):
                return fail("events.jsonl", "%s: not the first event, or names no game" % where)
            self.game = p
            if dice.get("mode") != "chain" or not is_hex64(dice.get("commitment")) or not is_int(dice.get("chain_length"), 1):
                return fail("events.jsonl", "%s: the dice are not from a committed chain: nothing to check them against" % where)
            self.chain(dice["commitment"], dice["chain_length"], 1)
        elif self.game is None:
            fail("events.jsonl", "%s: the first event is not game.created" % where)
        elif isinstance(p, dict):
            if isinstance(p.get("sealed"), str) and p["sealed"]:
                self.sealed[seq] = p["sealed"]
            if t == "orders.accepted" and seq in self.sealed:
                self.hidden[seq] = p
            elif t == "orders.accepted":
                self.submitted(seq, p, p.get("text") or p.get("orders"), where)
            elif t == "dice.chain-extended":
                if not is_int(p.get("chain")) or p["chain"] != len(self.chains) or not is_hex64(p.get("commitment")) or \
                        not is_int(p.get("chain_length"), 1) or not is_int(p.get("from_k"), len(self.seeds) + 1):
                    return fail("events.jsonl", "%s: not the next chain, for adjudications to come" % where)
                self.chain(p["commitment"], p["chain_length"], p["from_k"])
            elif t == "turn.adjudicated":
                self.adjudicated(seq, p, where)
            elif t == "sealed.revealed":
                self.revealed(p, where)
            elif t == "sealed.lost":  # an opening the referee lost: never revealed
                if not is_int(p.get("of")) or self.sealed.get(p["of"]) != p.get("commitment"):
                    return fail("events.jsonl", "%s: says a commitment is lost that is not sealed" % where)
                del self.sealed[p["of"]]

    def chain(self, commitment, length, from_k):
        self.chains.append({"commitment": commitment, "length": length, "from_k": from_k,
                            "good": (0, bytes.fromhex(commitment))})

    def adjudicated(self, seq, p, where):
        """README step 2 for the seed, step 3 for each public roll."""
        k, c, i, s = p.get("k"), p.get("chain"), p.get("index"), p.get("seed")
        if k != len(self.seeds) + 1:
            fail("events.jsonl", "%s: adjudication %r where %d was expected" % (where, k, len(self.seeds) + 1))
        self.seeds.append("%s %s %s %s\n" % (k, c, i, s))
        self.states.append("%s %s\n" % (k, p.get("state_hash")))
        if not is_int(k, 1) or not is_hex64(p.get("state_hash")):
            return fail("events.jsonl", "%s: no adjudication number or state hash" % where)
        serving = max([n for n, ch in enumerate(self.chains) if ch["from_k"] <= k], default=None)
        ch = self.chains[serving] if serving is not None else {"from_k": k, "length": 0}
        if not is_int(c) or c != serving or not is_int(i) or i != k - ch["from_k"] + 1 or i > ch["length"] or not is_hex64(s):
            return fail("events.jsonl", "%s: seed %r of chain %r, but adjudication %d uses seed %d of chain %s" %
                        (where, i, c, k, k - ch["from_k"] + 1, serving))
        seed, (last, want) = bytes.fromhex(s), ch["good"]
        if i - last > MAX_HASHES:
            return fail("events.jsonl", "%s: seed %d is too far after seed %d to check" % (where, i, last))
        h = seed
        for _ in range(i - last):  # once per step back to the last seed that checked
            h = hashlib.sha256(h).digest()
        if h != want:
            return fail("events.jsonl", "%s: seed %d of chain %d does not hash to %s: not the committed dice" %
                        (where, i, c, "seed %d" % last if last else "the commitment"))
        ch["good"], self.checked = (i, seed), self.checked + 1
        rolls, die, standins = p.get("rolls", []), 0, {}
        for r in rolls if isinstance(rolls, list) else [None]:
            m = DICE.match(r["dice"]) if isinstance(r, dict) and isinstance(r.get("dice"), str) else None
            if not m or not is_int(r.get("n")) or r["n"] != die:
                return fail("events.jsonl", "%s: roll %r does not start at die %d with NdF dice" % (where, r, die))
            if r.get("sealed") is True:  # a stand-in, checked when revealed
                standins[die] = r["dice"]
            else:
                self.roll(where, k, seed, r)
            die += int(m.group(1))
        self.adjs[seq] = (k, seed, standins)

    def dice_game(self):
        """The id in the dice message: dice.game for a branch (README step 3)."""
        d = self.game.get("dice")
        if isinstance(d, dict) and isinstance(d.get("game"), str) and d["game"]:
            return d["game"]
        return self.game["game"]

    def roll(self, where, k, seed, r):
        """README step 3 for one roll whose "n" and "dice" are known good."""
        count, f = map(int, DICE.match(r["dice"]).groups())
        label, faces = r.get("label"), r.get("faces")
        if count > MAX_DICE or not 2 <= f < 1 << 64 or not isinstance(label, str) or \
                not isinstance(faces, list) or len(faces) != count:
            return fail("events.jsonl", "%s: roll %r: no label, or not %s faces" % (where, label, r["dice"]))
        for j, got in enumerate(faces):
            want, self.dice = face(seed, self.dice_game(), k, label, r["n"] + j, f), self.dice + 1
            if got != want:
                fail("events.jsonl", "%s: die %d (%s) shows %r, the seed gives %d" % (where, r["n"] + j, label, got, want))
        if r.get("total") != sum(x for x in faces if is_int(x)):
            fail("events.jsonl", "%s: roll %r totals %r, not the sum of its faces" % (where, label, r.get("total")))

    def revealed(self, p, where):
        """README step 4; the hidden rolls of an adjudication get step 3."""
        of, c, opening = p.get("of"), p.get("commitment"), p.get("opening")
        if not is_int(of) or of not in self.sealed or c != self.sealed[of] or not isinstance(opening, str):
            return fail("events.jsonl", "%s: reveals %r of event %r, which has no such commitment left" % (where, c, of))
        del self.sealed[of]
        try:
            if hashlib.sha256(opening.encode()).hexdigest() != c:
                return fail("events.jsonl", "%s: the opening of event %d does not hash to its commitment" % (where, of))
        except UnicodeEncodeError:
            return fail("events.jsonl", "%s: the opening is not valid UTF-8" % where)
        op = loads(opening)
        op = op if isinstance(op, dict) else {}
        if of in self.hidden:
            self.submitted(of, self.hidden[of], op.get("text") or op.get("orders", ""), where, True)
        elif of in self.adjs:
            k, seed, standins = self.adjs[of]
            rolls = op.get("rolls", [])
            for r in rolls if isinstance(rolls, list) else [None]:
                n = r.get("n") if isinstance(r, dict) else None
                if not is_int(n) or n not in standins or standins[n] != r.get("dice"):
                    return fail("events.jsonl", "%s: revealed roll %r has no stand-in in event %d" % (where, r, of))
                del standins[n]
                self.roll(where, k, seed, r)
            if standins:
                fail("events.jsonl", "%s: the rolls at dice %s of event %d stay hidden" % (where, sorted(standins), of))

    def submitted(self, seq, p, text, where, revealed=False):
        """Orders every side may now read: their orders/ file."""
        if not isinstance(text, str):
            return fail("events.jsonl", "%s: the orders of event %d have no text" % (where, seq))
        if text or revealed:
            self.orders["orders/%06d-%s-turn%s-%s.yaml" % (seq, p.get("side"), p.get("turn"), p.get("phase"))] = text


def read_events(data, log):
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return fail("events.jsonl", "not UTF-8")
    if lines.pop() != "":
        fail("events.jsonl", "the last line does not end in a newline")
    prev = bytes(32)
    for n, line in enumerate(lines, 1):
        e = loads(line)
        if not isinstance(e, dict) or set(e) != LINE:
            return fail("events.jsonl", "line %d: not an event with the fields %s" % (n, ", ".join(sorted(LINE))))
        if not (is_int(e["seq"], 0, (1 << 64) - 1) and is_int(e["schema"]) and is_int(e["unix_nano"]) and
                all(isinstance(e[f], str) for f in ("type", "time", "actor", "payload", "prev", "hash"))):
            return fail("events.jsonl", "line %d: a field of the wrong type" % n)
        if e["seq"] != n:
            return fail("events.jsonl", "line %d: seq %d where %d was expected" % (n, e["seq"], n))
        if e["prev"] != prev.hex():
            fail("events.jsonl", "event %d: prev is not the hash of the event before" % n)
        if e["time"] != rfc3339(e["unix_nano"]):
            fail("events.jsonl", "event %d: time %s is not unix_nano %d" % (n, e["time"], e["unix_nano"]))
        try:
            prev = event_hash(prev, e)
        except UnicodeEncodeError:
            return fail("events.jsonl", "event %d: not valid UTF-8" % n)
        if e["hash"] != prev.hex():
            fail("events.jsonl", "event %d: hash %s, but its fields hash to %s" % (n, e["hash"], prev.hex()))
        log.events.append(e)
        log.event(e, loads(e["payload"]))
    if log.game is None:
        fail("events.jsonl", "no game.created event")


def read_tar(path):
    """The regular files of the tar, in order, within the limits."""
    files, total = [], 0
    try:
        with tarfile.open(path, "r:") as tf:
            for m in tf:
                if m.isdir():
                    continue
                total += m.size
                if not m.isreg():
                    fail(m.name, "not a plain file: a bundle holds only files")
                    break
                if len(files) >= MAX_FILES or m.size > MAX_FILE or total > MAX_TOTAL:
                    fail(m.name, "over the limits (%d files, 64 MiB each, 1 GiB in all): refused" % MAX_FILES)
                    break
                files.append((m.name, tf.extractfile(m).read(MAX_FILE + 1)))
    except (tarfile.TarError, OSError, EOFError, ValueError) as e:
        fail(path, "not a readable tar archive: %s" % e)
    return files


def check_module(game, got):
    """A game played from module data: module.sha256 hashes to the digest
    game.created records, lists each file under module/ with its SHA-256, in
    path order. Returns the files it expects."""
    ref = (game or {}).get("module")
    if not ref:
        return []
    manifest = got.get("module.sha256")
    if manifest is None:
        fail("module.sha256", "missing: the game was created with module %s" % ref.get("name"))
        return ["module.sha256"]
    if hashlib.sha256(manifest).hexdigest() != ref.get("digest"):
        fail("module.sha256", "does not hash to the digest game.created records (%s)" % ref.get("digest"))
    want, last = ["module.sha256"], ""
    for line in manifest.decode("utf-8", "replace").splitlines():
        digest, _, name = line.partition("  ")
        if not is_hex64(digest) or not name or name <= last:
            fail("module.sha256", "line %r is not HASH, two spaces, a path, in path order" % line)
            continue
        last = name
        want.append("module/" + name)
        data = got.get("module/" + name)
        if data is not None and hashlib.sha256(data).hexdigest() != digest:
            fail("module/" + name, "does not hash to what module.sha256 lists")
    return want


def check(path, commitment, head):
    files = read_tar(path)
    if not files:
        return fail(path, "holds no files")
    root, got = files[0][0].split("/")[0], {}
    for name, data in files:
        rel = name[len(root) + 1:] if name.startswith(root + "/") else ""
        if not rel or rel in got:
            fail(name, "not a file of its own under %s/" % root)
        got.setdefault(rel, data)
    log = Log()
    read_events(got.get("events.jsonl", b""), log)
    game = log.game or {}
    if log.game and root != game["game"]:
        fail(root, "the bundle's folder is not the game's id %s" % game["game"])
    for name, text in [("seeds.txt", "".join(log.seeds)), ("state-hashes.txt", "".join(log.states))] + \
            list(log.orders.items()):
        if name in got and got[name] != text.encode("utf-8", "replace"):
            fail(name, "is not what the events give")
    want = FIXED + list(log.orders) + ["results/%04d.txt" % k for k in range(1, len(log.seeds) + 1)]
    want += check_module(game, got)
    for name in want:
        if name not in got:
            fail(name, "missing")
    for name in got:
        if name not in want:
            fail(name, "not a file of a bundle of these events")
    order = [n for n in (name[len(root) + 1:] for name, _ in files) if n in want]
    for have, should in zip(order, [n for n in want if n in got]):
        if have != should:
            fail(have, "out of order (%s should come here)" % should)
            break
    dice = log.chains[0] if log.chains else {}
    facts = {"format": "umpire-bundle-2", "game": game.get("game"), "ruleset": game.get("ruleset"),
             "ruleset_version": game.get("ruleset_version"), "scenario": game.get("scenario", ""),
             "players": game.get("players"), "commitment": dice.get("commitment", ""),
             "chain_length": dice.get("length", 0), "events": len(log.events), "adjudications": len(log.seeds),
             "sealed": len(log.sealed), "head": log.events[-1]["hash"] if log.events else None}
    omitted = {"scenario": "", "commitment": "", "chain_length": 0}  # left out of game.json when empty
    gj = loads(got.get("game.json", b"").decode("utf-8", "replace"))
    if not isinstance(gj, dict):
        fail("game.json", "not a JSON object")
    elif log.game:
        for k, v in facts.items():
            if gj.get(k, omitted.get(k)) != v:
                fail("game.json", "%s is %s, the events give %s" % (k, json.dumps(gj.get(k)), json.dumps(v)))
    if commitment is not None and facts["commitment"] != commitment.strip().lower():
        fail("events.jsonl", "the dice commitment is %s, not %s as you were told" % (facts["commitment"], commitment))
    if head is not None:
        n, _, h = (x.strip().lower() for x in head.partition(":"))
        if not n.isdigit() or int(n) < 1 or not is_hex64(h):
            fail("--head", "give N:HASH, the event number and hash of your latest results mail")
        elif int(n) > len(log.events):
            fail("events.jsonl", "history cut short: %d events, but you were told of event %s" % (len(log.events), n))
        elif log.events[int(n) - 1]["hash"] != h:
            fail("events.jsonl", "history rewritten: event %s's hash is not %s as you were told" % (n, h))
    return len(log.events), log.checked, log.dice


def main():
    ap = argparse.ArgumentParser(description="Check an umpire audit bundle (see its README.txt).")
    ap.add_argument("bundle")
    ap.add_argument("--commitment", metavar="HEX", help="the dice commitment of your welcome mail")
    ap.add_argument("--head", metavar="N:HASH", help="the event number and hash of your latest results mail")
    args = ap.parse_args()
    counts = None
    try:
        counts = check(args.bundle, args.commitment, args.head)
    except Exception as e:  # a damaged bundle is a finding, never a crash
        fail(args.bundle, "cannot be checked: %s: %s" % (type(e).__name__, e))
    for p in problems:
        print("FAILED: " + p)
    if problems or counts is None:
        return 1
    print("OK: %d events, %d seeds, %d dice" % counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
