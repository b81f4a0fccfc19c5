// Package models holds the trained models shipped inside the binary. The
// files are embedded at build time (go:embed): reading them is no I/O at run
// time. It exists so that nothing under speculators/ embeds files: the CLI
// takes a model from here (or from a file the user names) and hands it to
// the policy through the registry (speculators/all.Options).
package models

import (
	_ "embed"

	"github.com/specbridge/specbridge/speculators/laser"
)

// laserDefault is LASER's default model, trained by
// `specbridge train laser scenarios/laser-pocd.yaml yarnclient/history/testdata --seed 1 --out models/laser-default.json`
// (see docs/laser-training.md; TestDefaultModelIsReproducible retrains it).
//
//go:embed laser-default.json
var laserDefault []byte

// LaserDefaultJSON is the embedded default LASER model file.
func LaserDefaultJSON() []byte { return laserDefault }

// LaserDefault parses the embedded default LASER model.
func LaserDefault() (*laser.Model, error) { return laser.ParseModel(laserDefault) }
