package referee

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/templates"
)

// The board and the bundle by mail: "command: map" and "command: export"
// (history.go authenticates the asker).

// MaxExportBytes is the largest audit bundle mailed by "command: export";
// a larger one is refused, and the player asked to get it from the
// referee (umpire export).
const MaxExportBytes = 5 << 20

// exportLimit is MaxExportBytes, lowered by a test.
var exportLimit = MaxExportBytes

// askMap answers "command: map": the board as the asker may see it, now or
// at the end of a past turn, as text and, for a game on a hex map, as a
// picture.
func (h *handling) askMap(ctx context.Context, a *asker) error {
	d, g := h.d, a.g
	past := false
	if t := a.c.Turn; t != 0 {
		now := g.View(adjudicator.Referee).Turn
		if t < 1 || t > now {
			at := yamlx.Value(a.root, "turn")
			return h.refuse(ctx, a.asked(d), "no-such-turn", adjudicator.Errorf(at, "out-of-range",
				"game %s is at turn %d: give a turn from 1 to %d, or leave \"turn:\" out for the board now", g.ID, now, now))
		}
		if t < now {
			pg, err := d.Games.LoadTurn(ctx, g.ID, t)
			if err != nil {
				if isStoreFailure(err) {
					return err
				}
				return h.refuse(ctx, a.asked(d), "no-such-turn", err)
			}
			g, past = pg, true
		}
	}
	v := g.View(a.viewer())
	atts := d.picture(g, v, a.viewer())
	data := templates.MapData{Asked: a.asked(d), Turn: v.Turn, Phase: v.Phase, Past: past, Map: viewText(v)}
	if len(atts) > 0 {
		if a.viewer() == adjudicator.Referee {
			atts[0].Name = fmt.Sprintf("%s-turn%d-referee.png", g.ID, v.Turn)
		}
		data.Picture = atts[0].Name
	}
	return h.answer(ctx, a.g.ID, "map", templates.AskMap, data, atts...)
}

// errTooLarge stops writing a bundle that will not be mailed.
var errTooLarge = errors.New("the bundle is too large to mail")

// cappedBuffer keeps at most limit bytes.
type cappedBuffer struct {
	bytes.Buffer
	limit int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.limit {
		return 0, errTooLarge
	}
	return b.Buffer.Write(p)
}

// askExport answers "command: export": the game's audit bundle, which
// holds only what every side may read (store/games.Export), attached as
// GAME.tar.
func (h *handling) askExport(ctx context.Context, a *asker) error {
	d, g := h.d, a.g
	data := templates.ExportData{Asked: a.asked(d), Limit: humanSize(int64(exportLimit))}
	buf := &cappedBuffer{limit: exportLimit}
	err := d.Games.Export(ctx, g.ID, buf)
	if errors.Is(err, errTooLarge) {
		d.log().Info("the bundle asked for by mail is too large to mail", "game", g.ID, "from", h.m.From, "limit", exportLimit)
		return h.answerRefused(ctx, g.ID, "export", "export-too-large", templates.AskExport, data)
	}
	if err != nil {
		return err
	}
	data.File = g.ID + ".tar"
	data.Size = humanSize(int64(buf.Len()))
	tar := compose.Attachment{Name: data.File, ContentType: "application/x-tar", Data: buf.Bytes()}
	return h.answer(ctx, g.ID, "export", templates.AskExport, data, tar)
}

// humanSize is a size for people, rounded: "812 bytes", "14 KiB", "2.3 MiB".
func humanSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0, n < 1<<20 && n >= 1<<10 && n%(1<<10) == 0:
		return yamlx.FormatSize(n)
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KiB", (n+1<<9)>>10)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
