package rest

import "context"

// Job is one finished job (/ws/v1/history/mapreduce/jobs[/{id}]). The list
// carries the summary fields; the single-job call fills the rest.
type Job struct {
	ID                    string `json:"id"`
	Name                  string `json:"name"`
	Queue                 string `json:"queue"`
	User                  string `json:"user"`
	State                 string `json:"state"` // SUCCEEDED, FAILED, KILLED, ...
	SubmitTime            int64  `json:"submitTime"`
	StartTime             int64  `json:"startTime"`
	FinishTime            int64  `json:"finishTime"`
	MapsTotal             int    `json:"mapsTotal"`
	MapsCompleted         int    `json:"mapsCompleted"`
	ReducesTotal          int    `json:"reducesTotal"`
	ReducesCompleted      int    `json:"reducesCompleted"`
	Uberized              bool   `json:"uberized"`
	Diagnostics           string `json:"diagnostics"`
	AvgMapTime            int64  `json:"avgMapTime"`
	AvgReduceTime         int64  `json:"avgReduceTime"`
	FailedMapAttempts     int    `json:"failedMapAttempts"`
	KilledMapAttempts     int    `json:"killedMapAttempts"`
	SuccessfulMapAttempts int    `json:"successfulMapAttempts"`
}

// Task is one task of a finished job.
type Task struct {
	ID                string  `json:"id"`
	Type              string  `json:"type"` // MAP or REDUCE
	State             string  `json:"state"`
	Progress          float64 `json:"progress"`
	StartTime         int64   `json:"startTime"`
	FinishTime        int64   `json:"finishTime"`
	ElapsedTime       int64   `json:"elapsedTime"`
	SuccessfulAttempt string  `json:"successfulAttempt"`
}

// Attempt is one task attempt of a finished job.
type Attempt struct {
	ID              string  `json:"id"`
	Type            string  `json:"type"`
	State           string  `json:"state"`
	Progress        float64 `json:"progress"`
	StartTime       int64   `json:"startTime"`
	FinishTime      int64   `json:"finishTime"`
	ElapsedTime     int64   `json:"elapsedTime"`
	Rack            string  `json:"rack"`
	NodeHTTPAddress string  `json:"nodeHttpAddress"`
	Container       string  `json:"assignedContainerId"`
	Diagnostics     string  `json:"diagnostics"`
	// Reduces only.
	ShuffleFinishTime int64 `json:"shuffleFinishTime"`
	MergeFinishTime   int64 `json:"mergeFinishTime"`
}

// Jobs lists the finished jobs the server knows.
func (h *JobHistory) Jobs(ctx context.Context) ([]Job, error) {
	return getList[Job](ctx, h.Client, "/ws/v1/history/mapreduce/jobs", "jobs", "job")
}

// Job returns one job; IsNotFound(err) when the server does not know it.
func (h *JobHistory) Job(ctx context.Context, jobID string) (Job, error) {
	return getObject[Job](ctx, h.Client, "/ws/v1/history/mapreduce/jobs/"+pathEscape(jobID), "job")
}

// Tasks lists a job's tasks.
func (h *JobHistory) Tasks(ctx context.Context, jobID string) ([]Task, error) {
	return getList[Task](ctx, h.Client, "/ws/v1/history/mapreduce/jobs/"+pathEscape(jobID)+"/tasks", "tasks", "task")
}

// Attempts lists a task's attempts.
func (h *JobHistory) Attempts(ctx context.Context, jobID, taskID string) ([]Attempt, error) {
	p := "/ws/v1/history/mapreduce/jobs/" + pathEscape(jobID) + "/tasks/" + pathEscape(taskID) + "/attempts"
	return getList[Attempt](ctx, h.Client, p, "taskAttempts", "taskAttempt")
}
