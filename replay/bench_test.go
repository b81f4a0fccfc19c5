package replay

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators/grass"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// BenchmarkSimulateSWIM re-executes the whole SWIM Facebook 2009 day
// (5,894 jobs) with no speculation and reports simulator events per second.
func BenchmarkSimulateSWIM(b *testing.B) {
	in := load(b, filepath.Join(shared, "swim", "FB-2009_samples_24_times_1hr_0.tsv"))
	w, err := FromHistory(in.Jobs, ClusterOptions{}, 1)
	if err != nil {
		b.Fatal(err)
	}
	reg := registry(b)
	opts := Options{Registry: reg}
	var events int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := runOne(w, "none", opts, 1, grass.NewMemoryStore())
		if err != nil {
			b.Fatal(err)
		}
		events += res.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkRumenMemory replays a large Rumen trace (writeRumenTrace: 100
// jobs of 1,000 maps and 50 reduces, 10 minutes apart, on 100 hosts; 105,000
// tasks, a 52 MB file), read eagerly (Load) and streamed (LoadStreaming),
// with no speculation, and reports the live heap once the input is read
// and its workload built (held-MB, after a collection), and the largest
// heap, garbage included, from the start of the read to the end of the run
// (peak-MB, sampled every 2 ms).
func BenchmarkRumenMemory(b *testing.B) {
	path := writeRumenTrace(b, b.TempDir(), 100, 1000, 50)
	loaders := map[string]func() (*Input, error){
		"eager":    func() (*Input, error) { return Load(path, "", history.DefaultSWIMModel()) },
		"streamed": func() (*Input, error) { return LoadStreaming(path, "", history.DefaultSWIMModel(), nil) },
	}
	for _, name := range []string{"eager", "streamed"} {
		b.Run(name, func(b *testing.B) {
			var held, peak float64
			heap := func(collect bool) float64 {
				var ms runtime.MemStats
				if collect {
					runtime.GC()
				}
				runtime.ReadMemStats(&ms)
				return float64(ms.HeapAlloc) / (1 << 20)
			}
			for range b.N {
				base := heap(true)
				stop, sampled := make(chan struct{}), make(chan float64)
				go func() { // the heap as the run has it, garbage included
					top := 0.0
					tick := time.NewTicker(2 * time.Millisecond)
					defer tick.Stop()
					for {
						select {
						case <-stop:
							sampled <- top
							return
						case <-tick.C:
							top = max(top, heap(false))
						}
					}
				}()
				in, err := loaders[name]()
				if err != nil {
					b.Fatal(err)
				}
				w, err := WorkloadOf(in, ClusterOptions{})(1)
				if err != nil {
					b.Fatal(err)
				}
				held = heap(true) - base
				if _, err := sim.Run(w.Config, w.Jobs, noSpeculation); err != nil {
					b.Fatal(err)
				}
				runtime.KeepAlive(in)
				close(stop)
				peak = <-sampled - base
			}
			b.ReportMetric(held, "held-MB")
			b.ReportMetric(peak, "peak-MB")
		})
	}
}

// writeRumenTrace writes a Rumen trace of n jobs, 10 minutes apart, each
// of maps maps (20 to 60 s, in waves over 100 hosts of 8 containers) and
// reduces reduces (60 to 120 s, after the maps), every attempt successful,
// with Rumen's fields as TraceBuilder writes them; times drawn from a
// fixed seed.
func writeRumenTrace(b testing.TB, dir string, n, maps, reduces int) string {
	path := filepath.Join(dir, "big-rumen.json")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	r := rand.New(rand.NewPCG(1, 2))
	const t0, hosts, slots = int64(1371222200000), 100, 8
	task := func(job, typ string, i int, start, end int64, host int, extra string) string {
		id := fmt.Sprintf("%s_%s_%06d", job, typ, i)
		return fmt.Sprintf(`{"startTime":%d,"taskID":"task_%s","taskType":"%s","finishTime":%d,"inputBytes":134217728,`+
			`"attempts":[{"location":{"layers":["default-rack","host%03d"]},"hostName":"/default-rack/host%03d","startTime":%d,`+
			`"result":"SUCCESS","finishTime":%d,"attemptID":"attempt_%s_0","hdfsBytesRead":134217728,"mapInputRecords":1000%s}],`+
			`"preferredLocations":[{"layers":["default-rack","host%03d"]}],"taskStatus":"SUCCESS"}`,
			start, id, map[string]string{"m": "MAP", "r": "REDUCE"}[typ], end, host, host, start, end, id, extra, host)
	}
	for j := range n {
		job := fmt.Sprintf("1369942127770_%04d", j+1)
		submit := t0 + int64(j)*600_000
		launch := submit + 2000
		free := make([]int64, hosts*slots) // when each container is next free
		for k := range free {
			free[k] = launch + 1000
		}
		next := func(d int64) (int64, int64, int) {
			k := 0
			for c := range free {
				if free[c] < free[k] {
					k = c
				}
			}
			start := free[k]
			free[k] = start + d
			return start, start + d, k / slots
		}
		var ms, rs []string
		lastMap := launch
		for i := range maps {
			start, end, host := next(20_000 + r.Int64N(40_000))
			lastMap = max(lastMap, end)
			ms = append(ms, task(job, "m", i, start, end, host, ""))
		}
		for k := range free {
			free[k] = max(free[k], lastMap)
		}
		finish := lastMap
		for i := range reduces {
			start, end, host := next(60_000 + r.Int64N(60_000))
			finish = max(finish, end)
			ms := start + (end-start)/3
			rs = append(rs, task(job, "r", i, start, end, host, fmt.Sprintf(`,"shuffleFinished":%d,"sortFinished":%d`, ms, ms+(end-start)/3)))
		}
		fmt.Fprintf(w, `{"priority":"NORMAL","jobID":"job_%s","user":"bench","jobName":"big","submitTime":%d,"launchTime":%d,`+
			`"finishTime":%d,"queue":"default","outcome":"SUCCESS","mapTasks":[%s],"reduceTasks":[%s],"otherTasks":[]}`+"\n",
			job, submit, launch, finish+1500, strings.Join(ms, ",\n"), strings.Join(rs, ",\n"))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}
