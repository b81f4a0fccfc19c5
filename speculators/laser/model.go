package laser

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ModelVersion is the model file format version this package reads.
// Version 2 added the training ranges (Net.InMin, Net.InMax), the spilled
// records and the job-level features, and dropped t_jvm as an input.
const ModelVersion = 2

// Model is LASER's trained networks (§IV-B, §V-B): Task estimates a map's
// run time at tau_est from its Table II features (3 hidden layers); Job and
// Machine estimate the job's completion time and machine time given a
// straggler and r (1 hidden layer each; Table I found one layer best for
// both). It is data: the driver reads a model file and hands the Model to
// the policy's constructor; nothing here reads files.
type Model struct {
	Version int `json:"version"`
	// TaskFeatures and JobFeatures name the inputs, in order, so that a
	// model trained with other features is refused rather than misread.
	TaskFeatures []string `json:"task_features"`
	JobFeatures  []string `json:"job_features"`
	Task         Net      `json:"task"`
	Job          Net      `json:"job"`
	Machine      Net      `json:"machine"`
	// Training describes how the model was made (inputs, seed, sizes and
	// the validation error), for the record.
	Training TrainingInfo `json:"training"`
}

// TrainingInfo records how a model was trained.
type TrainingInfo struct {
	Inputs []string `json:"inputs"`
	Seed   uint64   `json:"seed"`
	// Rows are the training and validation rows of each network.
	TaskRows int `json:"task_rows"`
	JobRows  int `json:"job_rows"`
	// Validation L1 errors (mean absolute error, seconds) and the mean of
	// the true values, per network.
	TaskL1S      float64 `json:"task_l1_s"`
	TaskMeanS    float64 `json:"task_mean_s"`
	JobL1S       float64 `json:"job_l1_s"`
	JobMeanS     float64 `json:"job_mean_s"`
	MachineL1S   float64 `json:"machine_l1_s"`
	MachineMeanS float64 `json:"machine_mean_s"`
}

// ParseModel decodes and checks a model file's contents; the error says
// what does not fit.
func ParseModel(data []byte) (*Model, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var m Model
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("laser model: %w", err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Validate checks the version, the feature lists and every network's shape.
func (m *Model) Validate() error {
	if m.Version != ModelVersion {
		return fmt.Errorf("laser model: version %d, this build reads %d", m.Version, ModelVersion)
	}
	if !equal(m.TaskFeatures, TaskFeatureNames) || !equal(m.JobFeatures, JobFeatureNames) {
		return fmt.Errorf("laser model: features %v / %v, this build computes %v / %v", m.TaskFeatures, m.JobFeatures, TaskFeatureNames, JobFeatureNames)
	}
	for _, n := range []struct {
		name string
		net  *Net
		in   int
	}{{"task", &m.Task, len(TaskFeatureNames)}, {"job", &m.Job, len(JobFeatureNames)}, {"machine", &m.Machine, len(JobFeatureNames)}} {
		if err := n.net.validate(n.in); err != nil {
			return fmt.Errorf("laser model: %s network: %w", n.name, err)
		}
	}
	return nil
}

// Encode renders the model as JSON, byte-stable for equal models.
func (m *Model) Encode() ([]byte, error) {
	return json.MarshalIndent(m, "", " ")
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
