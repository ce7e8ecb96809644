package games

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// What the data file keeps privately for a game (store.Batch.Secrets,
// never exported):
//
//	dice/N           s_N, the secret of dice chain N
//	player/SEAT      the check value of the secret of the player named
//	                 for side SEAT (who plays another side after a swap:
//	                 game.Game.Seat); SEAT is "SIDE/2", "SIDE/3"… for
//	                 the second, third… player of a team (docs/teams.md)
//	sealed/C         the opening of commitment C (see adjudicator/game/seal.go)
func diceSecret(gen int) string              { return fmt.Sprintf("dice/%d", gen) }
func playerSecret(s adjudicator.Side) string { return "player/" + string(s) }
func sealedSecret(c string) string           { return "sealed/" + c }

// A player's secret is 72 random bits drawn by umpire. The data file keeps
// only "v1$SALT$MAC": a fresh 16-byte salt and HMAC-SHA256(key = salt,
// message = the secret), both in hex. A slow hash would add nothing for a
// random secret of that size (no dictionary to try) and would cost every
// order mail; the salt makes each check value unique.
const verifierV1 = "v1"

func makeVerifier(salt []byte, secret string) []byte {
	m := hmac.New(sha256.New, salt)
	m.Write([]byte(strings.TrimSpace(secret)))
	return []byte(verifierV1 + "$" + hex.EncodeToString(salt) + "$" + hex.EncodeToString(m.Sum(nil)))
}

// checkVerifier reports whether secret matches the check value v. Check
// values "v0$SHA256" come from data files upgraded from schema 1, whose log
// held an unsalted SHA-256 of the secret.
func checkVerifier(v []byte, secret string) (bool, error) {
	parts := strings.Split(string(v), "$")
	secret = strings.TrimSpace(secret)
	switch {
	case len(parts) == 3 && parts[0] == verifierV1:
		salt, err := hex.DecodeString(parts[1])
		if err != nil {
			return false, fmt.Errorf("bad check value")
		}
		return subtle.ConstantTimeCompare(makeVerifier(salt, secret), v) == 1, nil
	case len(parts) == 2 && parts[0] == "v0":
		want, err := hex.DecodeString(parts[1])
		if err != nil {
			return false, fmt.Errorf("bad check value")
		}
		got := sha256.Sum256([]byte(secret))
		return subtle.ConstantTimeCompare(got[:], want) == 1, nil
	}
	return false, fmt.Errorf("unknown kind of check value")
}

// CheckSecret reports whether secret is the secret of the player who plays
// side now (after a side choice, the player who was given it for another
// side: his seat, game.Game.Seat).
func (s *Service) CheckSecret(ctx context.Context, id string, side adjudicator.Side, secret string) (bool, error) {
	g, err := s.Load(ctx, id)
	if err != nil {
		return false, err
	}
	return s.checkSeat(ctx, id, g.Seat(side), secret)
}

// CheckMember reports whether secret is the secret of the player of side
// at address from (one of the side's team, docs/teams.md).
func (s *Service) CheckMember(ctx context.Context, id string, side adjudicator.Side, from, secret string) (bool, error) {
	g, err := s.Load(ctx, id)
	if err != nil {
		return false, err
	}
	p, _, ok := g.Member(side, from)
	if !ok {
		return false, nil
	}
	return s.checkSeat(ctx, id, p.SeatName(), secret)
}

// checkSeat reports whether secret is the secret of the player named for
// seat when the game was created (or given the seat by the referee).
func (s *Service) checkSeat(ctx context.Context, id string, seat adjudicator.Side, secret string) (bool, error) {
	v, err := s.Store.Secret(ctx, id, playerSecret(seat))
	if errors.Is(err, store.ErrNotFound) {
		return false, fmt.Errorf("game %s keeps no check value for the player named for %s", id, seat)
	}
	if err != nil {
		return false, err
	}
	return checkVerifier(v, secret)
}

// unsealer returns the openings of a game's commitments from the store.
func (s *Service) unsealer(ctx context.Context, id string) game.Unseal {
	return func(c string) ([]byte, error) {
		b, err := s.Store.Secret(ctx, id, sealedSecret(c))
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("%w: the data file has no opening for commitment %s", game.ErrSealed, c)
		}
		return b, err
	}
}

// opening is game.Openings over the store: the opening of commitment c of
// game id, nil when the private part has none.
func (s *Service) opening(ctx context.Context) func(id, c string) ([]byte, error) {
	return func(id, c string) ([]byte, error) {
		b, err := s.Store.Secret(ctx, id, sealedSecret(c))
		if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrUnknownGame) {
			return nil, nil
		}
		return b, err
	}
}

// Unseal returns the opening of commitment c of game id: for the referee's
// own views (log, show) of what is not revealed yet.
func (s *Service) Unseal(ctx context.Context, id, c string) ([]byte, error) {
	return s.unsealer(ctx, id)(c)
}

// keepOpenings adds the openings of recs to a batch's secrets.
func keepOpenings(b *store.Batch, recs []game.Record) {
	for _, r := range recs {
		if r.Private == nil {
			continue
		}
		if b.Secrets == nil {
			b.Secrets = map[string][]byte{}
		}
		b.Secrets[sealedSecret(game.Digest(r.Private))] = r.Private
	}
}

// drawPlayerSecret draws a player's secret (72 random bits, in lower-case
// base32) and its check value.
func (s *Service) drawPlayerSecret() (string, []byte, error) {
	b, err := s.random(9)
	if err != nil {
		return "", nil, err
	}
	salt, err := s.random(16)
	if err != nil {
		return "", nil, err
	}
	sec := strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
	return sec, makeVerifier(salt, sec), nil
}
