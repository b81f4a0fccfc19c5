package replay

import (
	"reflect"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

// keeper is a Store in memory that counts what it was given.
type keeper struct {
	mem      *grass.MemoryStore
	runtimes int
}

func (k *keeper) Snapshot() *grass.MemoryStore { return k.mem.Clone() }
func (k *keeper) Keep(l speculators.Learned) error {
	k.runtimes += len(l.Runtimes)
	return k.mem.Keep(l)
}

// With a Store (--data-dir), every simulation starts from the store as it
// was when the replay began: a policy's results do not depend on which
// policies ran before it in the same replay, though each keeps what its
// jobs learned in the store.
func TestStoreSnapshotPerSimulation(t *testing.T) {
	in := load(t, "../scenarios/grass-error.yaml")
	run := func(order ...string) (map[string]Result, int) {
		st := &keeper{mem: grass.NewMemoryStore()}
		opts := Options{Speculators: order, Seed: 1, Runs: 1, Registry: registry(t), Store: st}
		res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
		if err != nil {
			t.Fatal(err)
		}
		return bySpeculator(res), st.runtimes
	}
	a, keptA := run(grass.NameGS, grass.NameGRASS)
	b, keptB := run(grass.NameGRASS, grass.NameGS)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("results depend on the order of policies:\n%+v\n%+v", a, b)
	}
	if keptA == 0 || keptA != keptB {
		t.Errorf("run times kept: %d and %d; want the same, more than 0", keptA, keptB)
	}
}
