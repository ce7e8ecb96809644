package conquete

import (
	"maps"
	"slices"
	"strings"
)

// goblinMounts are the kinds of the goblins' animals (DN3-PEOPLE-GOB-4).
var goblinMounts = []string{"wolf", "hyena"}

// animalsLeave plays the end of a Battle for the animals that fought in it:
// the animal of a druid killed leaves the game (DN3-PEOPLE-DRUID-6); the
// goblins' wolves and hyenas whose masters were killed go back to the
// wild (DN3-PEOPLE-GOB-9). Which goblin rides which animal is not kept on
// the strategic map: umpire's ruling is that each living goblin of the
// side who fought keeps one animal, so that as many animals leave as the
// goblins killed left without a master (hyenas first, then wolves, the
// highest numbers first).
func (x *world) animalsLeave(a *aftermath, fs []*fate) {
	st := x.st()
	fought := map[string]bool{}
	for _, f := range fs {
		if f.entered {
			fought[f.id] = true
		}
	}
	var leave []string
	for _, druid := range slices.Sorted(maps.Keys(druidAnimals)) {
		animal := druidAnimals[druid]
		if fought[druid] && fought[animal] && st.Counters[animal] != nil && a.counter(druid).Dead && !a.counter(animal).Dead {
			leave = append(leave, animal)
			x.say(nil, "%s's %s leaves the game: its druid was killed (DN3-PEOPLE-DRUID-6).", druid, animal)
		}
	}
	for _, side := range sides {
		var animals []string
		killed, living := 0, 0
		for _, f := range fs {
			c := a.counter(f.id)
			if !fought[f.id] || f.side != side || c.People != "gobelins" {
				continue
			}
			switch {
			case slices.Contains(goblinMounts, c.Kind) && !c.Dead:
				animals = append(animals, f.id)
			case slices.Contains(goblinMounts, c.Kind):
			case c.Dead:
				killed++
			default:
				living++
			}
		}
		n := min(killed, len(animals)-living)
		if n <= 0 {
			continue
		}
		slices.SortFunc(animals, func(p, q string) int {
			kp, kq := slices.Index(goblinMounts, a.counter(p).Kind), slices.Index(goblinMounts, a.counter(q).Kind)
			if kp != kq {
				return kq - kp // hyenas first
			}
			return compareIDs(q, p) // the highest number first
		})
		gone := slices.Clone(animals[:n])
		slices.Sort(gone)
		leave = append(leave, gone...)
		x.say(nil, "%s go back to the wild: their masters were killed (DN3-PEOPLE-GOB-9).", capital(list(gone)))
	}
	for _, id := range leave {
		if side := a.counter(id).Side; side != "" {
			a.eds[side].kill(id)
		} else {
			a.counter(id).Dead = true
		}
	}
}

// compareIDs orders counter ids with their numbers as numbers (wolf-2
// before wolf-10).
func compareIDs(a, b string) int {
	na, nb := numSuffix(a), numSuffix(b)
	if na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

func numSuffix(id string) int {
	n, mul := 0, 1
	for i := len(id) - 1; i >= 0 && id[i] >= '0' && id[i] <= '9'; i-- {
		n += int(id[i]-'0') * mul
		mul *= 10
	}
	return n
}
