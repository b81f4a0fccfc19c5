// Package all builds the registry of every policy specbridge ships. It is the
// one place that lists them; bridge, sim and the CLI take their registry from
// here.
package all

import (
	"fmt"

	"github.com/specbridge/specbridge/models"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/auto"
	"github.com/specbridge/specbridge/speculators/dolly"
	"github.com/specbridge/specbridge/speculators/ese"
	"github.com/specbridge/specbridge/speculators/farms"
	"github.com/specbridge/specbridge/speculators/grass"
	"github.com/specbridge/specbridge/speculators/hadoop"
	"github.com/specbridge/specbridge/speculators/hadooplegacy"
	"github.com/specbridge/specbridge/speculators/laser"
	"github.com/specbridge/specbridge/speculators/late"
	"github.com/specbridge/specbridge/speculators/mantri"
	"github.com/specbridge/specbridge/speculators/none"
	"github.com/specbridge/specbridge/speculators/sca"
	"github.com/specbridge/specbridge/speculators/sda"
	"github.com/specbridge/specbridge/speculators/srquant"
)

// Options carries what some policies need from the caller, which owns the
// I/O: LaserModel is LASER's trained model (nil: the model embedded in the
// binary, package models; the CLI passes the file named by --param
// laser.model instead).
type Options struct {
	LaserModel *laser.Model
}

// policies lists the shipped policies in the order reports show them.
func policies(o Options) []speculators.Policy {
	return []speculators.Policy{
		none.Policy(),
		hadoop.Policy(),
		hadooplegacy.Policy(),
		late.Policy(),
		grass.PolicyGS(),
		grass.PolicyRAS(),
		grass.PolicyGRASS(),
		mantri.Policy(),
		farms.Policy(),
		farms.TWSPolicy(),
		dolly.Policy(),
		sca.Policy(),
		sda.Policy(),
		ese.Policy(),
		srquant.Policy(),
		laser.Policy(o.LaserModel),
		auto.Policy(),
	}
}

// Registry returns a registry holding every shipped policy. An error means two
// policies share a name or a default does not fit its parameter's kind: a
// programming error the package's test catches.
func Registry() (*speculators.Registry, error) { return RegistryWith(Options{}) }

// RegistryWith is Registry with the caller's Options.
func RegistryWith(o Options) (*speculators.Registry, error) {
	if o.LaserModel == nil {
		m, err := models.LaserDefault()
		if err != nil {
			return nil, fmt.Errorf("embedded laser model: %w", err)
		}
		o.LaserModel = m
	}
	r := speculators.NewRegistry()
	for _, p := range policies(o) {
		if err := r.Add(p); err != nil {
			return nil, err
		}
	}
	return r, nil
}
