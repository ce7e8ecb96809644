package games_test

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/umpire-pbem/umpire/store/games"
)

type tarFile struct {
	name string
	body []byte
}

func untar(t *testing.T, b []byte) []tarFile {
	t.Helper()
	var out []tarFile
	tr := tar.NewReader(bytes.NewReader(b))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(tr)
		out = append(out, tarFile{h.Name, body})
	}
}

func retar(t *testing.T, files []tarFile) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write(f.body)
	}
	tw.Close()
	return buf.Bytes()
}

func exported(t *testing.T) ([]byte, *games.Service) {
	t.Helper()
	s := newService(t)
	create(t, s, 3)
	playOut(t, s, "race-1")
	var buf bytes.Buffer
	if err := s.Export(context.Background(), "race-1", &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), s
}

// TestVerifyEveryBundleFile changes, removes, adds and reorders each kind
// of file of a bundle: each must fail verify, naming the file.
func TestVerifyEveryBundleFile(t *testing.T) {
	good, _ := exported(t)
	if a, err := games.VerifyBundle(bytes.NewReader(good), lookup, games.Known{}); err != nil || !a.OK() {
		t.Fatalf("the untouched bundle: %+v %v", a, err)
	}
	files := untar(t, good)
	find := func(prefix string) int {
		for i, f := range files {
			if strings.HasPrefix(f.name, "race-1/"+prefix) {
				return i
			}
		}
		t.Fatalf("no %s in the bundle", prefix)
		return -1
	}
	edit := func(prefix string, change func([]byte) []byte) []tarFile {
		out := append([]tarFile(nil), files...)
		i := find(prefix)
		out[i] = tarFile{out[i].name, change(bytes.Clone(out[i].body))}
		return out
	}
	flip := func(b []byte) []byte {
		i := bytes.IndexAny(b, "0123456789")
		if b[i] == '1' {
			b[i] = '2'
		} else {
			b[i] = '1'
		}
		return b
	}
	swapLines := func(b []byte) []byte {
		lines := bytes.SplitAfter(b, []byte("\n"))
		lines[1], lines[2] = lines[2], lines[1]
		return bytes.Join(lines, nil)
	}
	cases := []struct {
		name, file string
		files      []tarFile
	}{
		{"event changed", "events.jsonl", edit("events.jsonl", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"actor":"engine"`), []byte(`"actor":"enginf"`), 1)
		})},
		{"events reordered", "events.jsonl", edit("events.jsonl", swapLines)},
		{"events cut", "events.jsonl", edit("events.jsonl", func(b []byte) []byte {
			lines := bytes.SplitAfter(b, []byte("\n"))
			return bytes.Join(lines[:len(lines)-3], nil)
		})},
		{"commitment changed", "game.json", edit("game.json", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"commitment": "`), []byte(`"commitment": "00`), 1)
		})},
		{"head changed", "game.json", edit("game.json", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"head": "`), []byte(`"head": "ff`), 1)
		})},
		{"seed changed", "seeds.txt", edit("seeds.txt", func(b []byte) []byte { return bytes.Replace(b, []byte(" "), []byte("  "), 1) })},
		{"state hash changed", "state-hashes.txt", edit("state-hashes.txt", flip)},
		{"orders changed", "orders/", edit("orders/", func(b []byte) []byte { return append(b, "# later\n"...) })},
		{"result changed", "results/", edit("results/", func(b []byte) []byte { return bytes.Replace(b, []byte("roll"), []byte("rol"), 1) })},
		{"readme changed", "README.txt", edit("README.txt", func(b []byte) []byte { return append(b, "trust me\n"...) })},
		{"file missing", "seeds.txt", func() []tarFile {
			i := find("seeds.txt")
			return append(append([]tarFile(nil), files[:i]...), files[i+1:]...)
		}()},
		{"file added", "extra.txt", append(append([]tarFile(nil), files...), tarFile{"race-1/extra.txt", []byte("hi\n")})},
		{"files reordered", "", func() []tarFile {
			out := append([]tarFile(nil), files...)
			i, j := find("seeds.txt"), find("state-hashes.txt")
			out[i], out[j] = out[j], out[i]
			return out
		}()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := games.VerifyBundle(bytes.NewReader(retar(t, c.files)), lookup, games.Known{})
			if err != nil {
				if !strings.Contains(err.Error(), c.file) {
					t.Fatalf("error %v does not name %s", err, c.file)
				}
				return
			}
			if a.OK() {
				t.Fatal("verified")
			}
			if c.file != "" && !strings.Contains(strings.Join(a.Problems, "\n"), c.file) {
				t.Errorf("no problem names %s: %q", c.file, a.Problems)
			}
			if c.name == "files reordered" && !strings.Contains(strings.Join(a.Problems, "\n"), "out of order") {
				t.Errorf("reordering not named: %q", a.Problems)
			}
		})
	}
}

// TestVerifyWhatPlayersKept: a history cut short or rewritten verifies on
// its own, but not against what a player kept from their mails.
func TestVerifyWhatPlayersKept(t *testing.T) {
	good, s := exported(t)
	ctx := context.Background()
	evs, err := s.Store.Events(ctx, "race-1", 1)
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		Dice struct{ Commitment string } `json:"dice"`
	}
	g, _ := s.Load(ctx, "race-1")
	created.Dice.Commitment = g.Created.Dice.Commitment
	last := evs[len(evs)-1]
	known := games.Known{Commitment: created.Dice.Commitment, HeadSeq: last.Seq, Head: last.Hash.String()}
	if a, err := games.VerifyBundle(bytes.NewReader(good), lookup, known); err != nil || !a.OK() {
		t.Fatalf("the bundle against what was kept: %+v %v", a, err)
	}
	if a, err := s.Verify(ctx, "race-1", known); err != nil || !a.OK() {
		t.Fatalf("the stored game against what was kept: %+v %v", a, err)
	}
	// A bundle made from the first events alone is whole by itself.
	files := untar(t, good)
	for i, f := range files {
		if strings.HasSuffix(f.name, "events.jsonl") {
			lines := bytes.SplitAfter(f.body, []byte("\n"))
			files[i].body = bytes.Join(lines[:len(lines)-4], nil)
		}
	}
	cut := retar(t, files)
	a, err := games.VerifyBundle(bytes.NewReader(cut), nil, known)
	if err != nil || a.OK() || !strings.Contains(strings.Join(a.Problems, "\n"), "cut short") {
		t.Fatalf("a cut history against the kept head: %+v %v", a, err)
	}
	wrong := known
	wrong.Commitment = strings.Repeat("0", 64)
	if a, _ := games.VerifyBundle(bytes.NewReader(good), nil, wrong); a.OK() || !strings.Contains(strings.Join(a.Problems, "\n"), "not the game you joined") {
		t.Fatalf("another commitment: %+v", a)
	}
	if _, _, err := games.ParseHead("12:zz"); err == nil {
		t.Error("a bad --head was taken")
	}
}

// TestBundleHoldsNoSecret: neither the players' secrets nor the dice
// secret of the chain in use are in a bundle or the log.
func TestBundleHoldsNoSecret(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	c := create(t, s, 0)
	red := c.Secrets["red"]
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: "red", NeedSecret: true,
		Src: []byte("game: race-1\nsecret: " + red + "\nturn: 1\nphase: bid\norders:\n  bid: 2\n")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: "blue", NeedSecret: true,
		Src: []byte("secret: " + red + "\nturn: 1\nphase: bid\norders:\n  bid: 2\n")}); err == nil || !strings.Contains(err.Error(), "bad-secret") && !strings.Contains(err.Error(), "missing or wrong") {
		t.Fatalf("red's secret for blue: %v", err)
	} else if strings.Contains(err.Error(), red) {
		t.Fatalf("the refusal quotes the secret: %v", err)
	}
	if _, err := s.Submit(ctx, games.SubmitRequest{Game: "race-1", Side: "blue", NeedSecret: true,
		Src: []byte("secret: " + c.Secrets["blue"] + "\nturn: 1\nphase: bid\norders:\n  bid: 1\n")}); err != nil {
		t.Fatal(err)
	}
	evs, _ := s.Store.Events(ctx, "race-1", 1)
	for _, e := range evs {
		for _, sec := range c.Secrets {
			if bytes.Contains(e.Payload, []byte(sec)) {
				t.Errorf("event %d holds a player's secret: %s", e.Seq, e.Payload)
			}
		}
	}
	var buf bytes.Buffer
	if err := s.Export(ctx, "race-1", &buf); err != nil {
		t.Fatal(err)
	}
	for _, sec := range c.Secrets {
		if bytes.Contains(buf.Bytes(), []byte(sec)) {
			t.Errorf("the bundle holds a player's secret")
		}
	}
	if !bytes.Contains(buf.Bytes(), []byte("game: race-1\nturn: 1\nphase: bid")) {
		t.Errorf("the orders text is not the text less its secret line")
	}
	// The check value is salted: the same secret gives another value.
	v, err := s.Store.Secret(ctx, "race-1", "player/red")
	if err != nil || !bytes.HasPrefix(v, []byte("v1$")) || bytes.Contains(v, []byte(red)) {
		t.Fatalf("check value %q %v", v, err)
	}
}
