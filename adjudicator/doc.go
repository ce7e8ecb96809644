// Package adjudicator is umpire's rules engine core: the vocabulary every
// ruleset speaks (sides, requests, orders, events, rolls, views) and the
// Ruleset interface that Dragon Rage, Dragons of Glory and Dragon Noir each
// implement in their own sub-package.
//
// The engine is pure. Given the same state, orders and dice it decides the
// same events, and evolving a state by an event cannot fail. It must never
// import net, os, the mail, store or templates packages, read the clock or use
// the global math/rand source: time comes in on the submission and dice come
// in through a Roller. purity_test.go enforces this for every package under
// adjudicator/.
//
// Turn structures differ widely between the games, so the engine does not
// know about turns or phases: a ruleset says, through Due, which sides must
// send what next. One request is an alternating phase (Dragon Rage), several
// at once are simultaneous orders (Dragons of Glory initiative rolls, secret
// army lists), and a request to the non-moving side in the middle of a turn is
// an interrupt (a Dragon Noir defensive-fire decision, a Dragon Rage
// "which hex does the displaced hero go to"). When every due request is
// answered the engine calls Decide once with all the answers: that is one
// adjudication, and it rolls from one seed of the dice chain.
package adjudicator
