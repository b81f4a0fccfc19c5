// Package auto holds auto, a policy that picks, per job and over the job's
// life, which shipped policy's rule to apply, from what it can know live and
// in replay alike. No system in the papers picks for the user; the papers
// themselves switch within their own family (GRASS between GS and RAS by
// learned samples, §4; Xu and Lau between cloning and detection at the
// cutoff load lambda_U, §III and §VI; FARMS adds failure awareness on top of
// a base, §3.2). auto applies those switches across families.
//
// The rule (docs/policies/auto.md has it and where auto stands;
// docs/auto-history.md the evidence from the scenarios):
//
//  1. A job with a deadline or an error bound (JobInfo or a JobBounds event)
//     runs the bounded member (default grass: RAS early, GS near the bound).
//  2. An exact map-only job runs the map-only member (grass), or, when its task
//     times follow an a-priori Pareto law (JobInfo.TailIndex > 1, Xu and
//     Lau's setting), the Pareto member (ras). A Pareto job placed while the
//     cluster's busy fraction is at least the larger of pareto-busy-load
//     and Xu and Lau's cutoff omega_U for its tail index runs the Pareto
//     busy member (ese) instead: detection above the cutoff load (§VI).
//  3. An exact job with reduces runs the exact member (late), ordered on
//     free slots least work first (order; simulator only: live, YARN's
//     scheduler orders jobs). Placed while the cluster's busy fraction is
//     at least busy-load, it runs the busy member (sda) instead, ordered by
//     sda's own three levels: Xu and Lau's detection above the cutoff
//     load, which on a stream of jobs of short tasks acts where LATE's
//     one-minute wait does not. Heterogeneity
//     (a spread of progress rates across nodes) is LATE's own signal
//     otherwise: it ranks by estimated time left and keeps copies off slow
//     nodes (choice: no separate detector switching between hadoop and
//     late, since late lost nothing to hadoop where nodes were alike).
//  4. A small job (at most small-tasks tasks), or one with an a-priori tail
//     index of at most clone-tail-index, or a job with reduces whose tasks
//     are at most small-idle-share of the idle slots, moves to the small
//     member (sca: clones at launch) when the cluster's busy fraction at
//     its first placement is below clone-load (choosePlaced).
//  5. An exact job with reduces whose cluster's last exact jobs' map times
//     spread widely (rule v5) runs tail-member (gs) from the start; on a
//     cluster of containers (not Hadoop 1 slot pools), one whose last
//     exact jobs' maps ran slow on at least spread-share of their nodes
//     (rule v6) runs spread-member (grass) from the start; on Hadoop 1 slot
//     pools, spread-slots-member (ese, rule v7), or, when the records show
//     slow nodes (not only reduce times that spread, rule v9),
//     spread-slots-slow-member (ras, rule v28). Both stand over the busy
//     and idle-slot cuts.
//  6. Rule v7, busy placements read earlier jobs' fits too: an exact
//     map-only job without an a-priori law placed at a busy fraction of at
//     least map-only-busy-load, after earlier jobs' map times spread at
//     least map-only-busy-sigma, runs map-only-busy-member (sda), and such
//     jobs are ordered least work first; a busy exact job with reduces
//     after at least three earlier jobs of tight map times (spread below
//     alike-busy-sigma) on alike nodes (slow share below spread-share)
//     runs alike-busy-member (sca) instead of busy-member.
//  7. Rule v8, from two more things earlier jobs hand out: a job with
//     reduces also reports, when its reduces are done, the share of the
//     nodes that ran them on which they took at least twice the job's
//     median reduce (FitReduces); at reduce-spread-share or above it counts
//     as slow nodes for rule v6/v7's spread member, and below it is needed
//     too for the alike member. Each
//     exact job's map record counts its copied maps and those a copy won;
//     when the last jobs' copies won less than futile-copy-wins of at
//     least three, an exact map-only job without an a-priori law runs
//     futile-member (hadoop): copies that do the same work as their
//     originals. A small exact job with reduces (at most small-tasks
//     tasks) runs busy-member from a busy fraction of small-busy-load
//     (0.25) rather than busy-load.
//  8. Rule v9: jobs are ordered by their work left in one level (order
//     least-remaining-first; a new job's whole work), the jobs the small
//     and busy members order too, so that a started job of hundreds of
//     tasks does not hold every slot before new jobs of a few start; and a
//     reduce record also carries the spread of the job's original reduce
//     times: at reduce-tail-sigma or above over the last records, a new
//     exact job with reduces runs the spread member, and below it is needed
//     for the alike member.
//  9. Rule v10: on a cluster of containers (not Hadoop 1 slot pools) an
//     exact job with reduces starts on containers-member (grass) rather
//     than exact-member (late), so the first jobs of a stream, which run
//     before any earlier job's record exists, run the member those
//     records call for on most container clusters; late stays the member
//     on slot pools (LATE's setting).
//  10. Rule v11: an exact map-only job with an a-priori Pareto law is
//     ordered on free slots as order says (pareto-order), as exact jobs
//     are: Xu and Lau's SDA and ESE place started jobs by work left and
//     new jobs by whole work (Algorithm 2, levels 2-3), and that order,
//     not detection, is most of what ESE gains over ras at their
//     §VI-C load.
//  11. Rule v12: the alike switch (rule v7) needs every one of the last
//     records below the slow-node cuts, not only their means
//     (alike-every-record): a fault that strikes some jobs and not others
//     leaves the means low, and the alike member (sca above the cutoff
//     load) copies nothing; a job alike by the means and not by the
//     slowest record runs the spread member on containers. An exact map-only job without an a-priori law
//     after a few slow nodes (a slow share of at least spread-share and
//     below map-only-spread-below, tight map times) runs
//     map-only-spread-member (ras). A small busy exact job with reduces
//     runs small-busy-member (ras) rather than busy-member; and a job
//     with reduces is small by the idle slots only when no recent record
//     shows slow nodes (small-idle-every-record).
//  12. Rule v13, the order on free slots (simulator only): exact map-only
//     jobs without an a-priori law are ordered in order's one level by
//     their work left, as exact jobs with reduces are (map-only-order),
//     so that a started giant in that level does not take every free slot
//     before a tiny map-only job's second map; and jobs with a deadline or
//     an error bound go ahead of every ordered job (bounded-order), where
//     they had waited behind the exact jobs.
//  13. Rule v14: a reduce record also counts the job's copied reduces and
//     those a copy won; when the last records' reduce copies won less
//     than futile-reduce-wins of at least three, and their map copies too
//     (or fewer than three were copied), an exact job with reduces runs
//     futile-member (hadoop) from its first decision: reduce skew, a copy
//     redoing its task's work. The tail switch (rule v5) still takes the
//     job when its map records spread at least tail-sigma: it is decided
//     after rule v14's and replaces its member (rule v32's evidence, not
//     rule v14's, turns the tail switch off). And the failure layer re-runs a failed
//     node's completed maps only once the node has been down
//     failure-rerun-after-ms (10 s), so that a node that stops answering
//     for a few seconds keeps its outputs.
//  14. Rule v15: failure-rerun-after-ms is 40 s, so that a node that hangs
//     for most of a minute keeps its outputs too; on Hadoop 1 slot pools
//     failure-rerun-after-slots-ms keeps v14's 10 s.
//  15. Rule v16: under order least-remaining-first, an exact job with
//     reduces whose every task is running or done, with no copy requested
//     and not yet started, has only copies of its own to place: it waits
//     on free slots behind every job with an original to place, unless the
//     most recent records show slow nodes on at least copies-last-below of
//     their nodes (copies-last-below).
//  16. Rule v17: reduce-spread-share is 0.045, so that one slow node
//     among about twenty (a reduce record's share of 0.05) counts as slow
//     nodes; on Hadoop 1 slot pools rule v16's tier is off
//     (copies-last-slots-below 0); on containers the tail member needs
//     the records' upper-half spread at least tail-upper-ratio of their
//     lower half (TailFit.Upper: a flat wide law is not a tail).
//  17. Rule v18: under least-remaining-first, a job whose reduces are at
//     least reduces-after-maps-share of the cluster's slots waits in rule
//     v16's tier while its last maps run.
//  18. Rule v19: the alike switch also needs none of the last
//     alike-sigma-records map records to spread at least tail-sigma (a
//     tenant's bursts of heavy-tailed jobs among another's tight ones);
//     on Hadoop 1 slot pools the busy member is busy-slots-member (hadoop).
//  19. Rule v20: on containers, an exact job with reduces whose records
//     are alike as the alike switch reads them, with map times spread below
//     alike-idle-sigma, starts on alike-idle-member (ras) rather than
//     containers-member (grass): tight tasks on alike nodes leave copies
//     little to gain, and RAS copies only when the copy saves resources
//     (choice: hadoop as the member lost four rows of faults that come and
//     go, whose records read alike between the faults); the busy and idle-slot
//     cuts still apply. A busy exact job of at most one map and one reduce
//     runs single-task-member (hadoop) in small-busy-member's place: with
//     no sibling task there is nothing to compare a task with, and a
//     copy's slot is another job's. Both fitted on one row each (heldout19).
//  20. Rule v21: the job order is an input (JobInfo.JobOrder: the cluster
//     applies a JobPrioritizer's order to free slots; live only with serve
//     --rm-job-order). Where it does not, rule v7's busy map-only job runs
//     unordered-map-only-busy-member (mantri) in map-only-busy-member's
//     (sda's) place: sda led there by its least-work-first order. The
//     order-only parts (rules v3, v9, v11, v13, v16, v18's tiers) need no
//     switch: without the order they reach no slot. With the order,
//     rule v21 is rule v20.
//  21. Rule v22: where the cluster does not apply the job order, an exact
//     job with reduces on containers whose first placement finds the
//     cluster at least unordered-busy-load (0.75) busy, after map records
//     that spread at least unordered-busy-sigma (0.25), runs
//     unordered-busy-member (hadoop) over the busy, alike, spread, small and
//     containers members (not over the tail or futile member's choice):
//     without an order to keep queued jobs' originals ahead of copies, a
//     busy cluster's slots go to whichever copies its jobs ask for, and
//     hadoop asks for fewest. Choice: the busy fraction at placement and
//     the records are what reach auto live too (the jobs waiting in the
//     simulator's ClusterView do not: live it lists the job alone); the
//     sigma floor keeps the clusters whose nodes differ while their tasks
//     do not (records read 0.08-0.13) on the spread member, whose copies
//     pay there. With the order, rule v22 is rule v21.
//  22. Rule v23: under order least-remaining-first, a job the busy member
//     (sda) runs takes sda's copies level (Xu and Lau's level 1, ahead of
//     every other job) only once its originals are all placed
//     (busy-copies-after-originals); before that it stays in order's
//     level by its work left. The level orders a whole job: a batch job of
//     160 two-minute maps with one copy waiting took every freed container
//     for its originals ahead of a stream of queries of a few seconds
//     (heldout22/interactive-beside-long-batch-fair: 35.3 s, twice
//     hadoop's 17.4; 18.55 under v23). Choice: the level is kept for a job
//     with only copies to place (dropping it for them too lost
//     heldout15/few-fat-nodes); the inputs are the job's own task states,
//     which reach auto live as in replay. Without the order (JobOrder
//     false) no priority reaches a slot, and rule v23 is rule v22.
//  23. Rule v24: a job with a deadline or an error bound, after exact
//     jobs whose map copies won less than futile-copy-wins of at least
//     three (rule v8's evidence), runs futile-bounded-member (none) in
//     place of bounded-member (grass), from its first decision or from
//     the JobBounds event that gives it its bounds live. A copy there
//     redoes its task's work (the same split, data skew): grass made 513
//     copies a run for 19 error-bound jobs of
//     heldout23/split-sizes-three-map-only and none won (time to bound
//     50.0 s, 45.3 under v24; dolly 43.9, hadoop 46.0). Choice: GRASS
//     (Trimming Stragglers in Approximation Analytics, §4) copies a task
//     only when the copy is expected to finish first and save slots;
//     where no copy finishes first that is no copy at all, and the job's
//     slots go to its originals (none, dolly and tws gave the same rows,
//     hadoop 0.2 s more). The evidence is the exact jobs' records, which
//     reach auto live as in replay; a bounded job writes none, so not
//     copying it does not starve the switch (as none as futile-member
//     did for rule v14's jobs).
//  24. Rule v25: an exact job with reduces after rule v14's evidence
//     (reduce copies that won less than futile-reduce-wins, map copies
//     too or fewer copied) runs futile-reduce-member (sca) in place of
//     futile-member (hadoop), and the evidence is read over the most
//     recent records that copied a task (learnedCopyWinsOfCopied). A
//     copy there redoes its task's work (reduce skew, Zipf-sized
//     partitions): on heldout22/zipf-partitions-reduce-heavy no copy won
//     under v24 (hadoop ran 55 of 60 jobs; 130.5 s, hadoop alone 129.4,
//     sca 120.3) nor under v25 (sca 45 jobs, grass 12 before or between
//     the evidence; 126.0 s, p95 210.0 -> 181.6). Choice: SCA (Xu and
//     Lau, Optimization for Speculative Execution in Big Data Processing
//     Clusters, §IV) copies nothing above the cutoff load and clones only
//     below it, and led that row; none as the member gave 128.8 s. A job
//     that copies nothing writes a record of no copies, which says
//     nothing of whether copies win: read over the last five records
//     alone, those records pushed the losing copies out and the next jobs
//     went back to copying members (rule v23's trial of none as
//     futile-member: 22 jobs back to grass, 130.3 s). Only where the
//     cluster applies the job order (JobInfo.JobOrder): under
//     --job-order none it cost heldout12/multi-wave-reduces (0.1 s
//     behind hadoop) and the zipf row (130.8 -> 134.4 s), and rule v25
//     is rule v24 there.
//  25. Rule v26: a job with a deadline whose tasks are at least
//     deadline-waves (2) times the slots it can hold (JobInfo.Slots) runs
//     deadline-waves-member (hadoop) in place of bounded-member (grass),
//     from its first decision or from the JobBounds event that gives it
//     its deadline live; rule v24's futile-bounded-member stands over it.
//     GRASS's Guideline 1 (Trimming Stragglers in Approximation
//     Analytics, §3.2): in a job's early waves speculation pays only for
//     an infinite-variance tail; a job of several waves is mostly early
//     waves, and each copy's slot is one of its own originals that the
//     deadline would count. On heldout21/deadline-many-waves-speeds (every
//     job deadline-bound, 8-240 maps on 64 containers) grass ran all 26
//     jobs: accuracy 0.9411, hadoop 0.9632; 0.9696 under v26. Choice: the
//     line is Guideline 3's two waves; error bounds keep grass (the switch
//     applied to them too cost grass-error 6%).
//  26. Rule v27: from the first map output a job loses (a succeeded map
//     attempt reported failed or killed afterwards: the reducers' fetch
//     failures or the node's expiry), the failure layer re-runs the
//     outputs left on a failed node at once, not after
//     failure-rerun-after-ms, and an exact job runs lost-output-member
//     (hadoop) in its member's place. Rules v14-v15's wait is for a node
//     that hangs and comes back with its outputs; a lost output says this
//     one will not (FARMS, §3.2, re-runs a failed node's completed maps at
//     once), and while the reducers wait for re-runs the GRASS family's
//     copies of their stalled work take the slots the re-runs need. On
//     heldout26/shuffle-crashes-eager-fetch-failures-fifo (crashes at the
//     end of a job's maps, fetch-failure thresholds lowered) grass ran 38
//     of 40 jobs: 126.8 s, tws 93.9, hadoop 114.0; 93.3 under v27. Choice:
//     the switch reads the job's own events, which reach auto live as in
//     replay; a node failure alone does not move it (a hang keeps its
//     outputs), and a node failure as the trigger would be rule v13's
//     re-runs at once; hadoop copies least (as the member: late and tws
//     101.7 s, none 101.5, sca 98.5, hadoop 93.3). Only where the cluster
//     applies the job order (JobInfo.JobOrder): under --job-order none
//     it put two rows behind hadoop and brought none in, and rule v27 is
//     rule v26 there.
//  27. Rule v29: a job the tail switch (rule v5) chose runs
//     tail-busy-member (ras) instead when its first placement finds the
//     cluster's busy fraction at or above busy-load: GRASS's Guideline 3
//     (Trimming Stragglers in Approximation Analytics, §3.2) has RAS
//     near-optimal for jobs of more than two waves and GS for fewer, and
//     GRASS reads waves from utilization (§4.1). On
//     heldout27/overload-stingy-caps-fifo (load 0.95, lognormal maps) gs
//     ran 38 of 45 jobs: 68.6 s, ras 54.7, hadoop 66.2; 55.9 under v29.
//  28. Rule v30: a job small by its size (small-tasks, not one
//     heavy-tailed by its a-priori law) runs the small member at a light
//     load only if its tasks are at most small-room-share (0.5; 0.25
//     from rule v31) of the
//     idle slots at its first placement; otherwise it keeps its member. A
//     clone needs a slot of its own: Xu and Lau (Optimization for
//     Speculative Execution in Big Data Processing Clusters, §IV-A) solve
//     their cloning problem P2 only when the jobs' tasks fit in the idle
//     machines, "a large room for making clones"; share 0.5 leaves room
//     for one clone a task (small-idle-share's cut, not a fitted number).
//     On heldout28/tiny-dev-cluster-three-nodes-fifo
//     (12 containers, jobs of 5-13 tasks) sca ran about half the jobs:
//     27.2 s, ras 25.9, hadoop 26.9; 26.2 under v30.
//  29. Rule v31: small-room-share is 0.25 (room for three clones a
//     task), rule v30's switch with a changed default. On
//     heldout29/error-tiny-jobs-one-drop-fair (48 containers, jobs of
//     5-12 maps, error bounds) the unbounded jobs small by their size
//     and placed with fewer than four times their tasks idle then run
//     grass, not sca: time to
//     bound 14.13 s -> 13.78 (gs 13.35). Choice: fitted on that row
//     (0.1-0.25 bring it in; 0.25 is the widest, the least moved from
//     v30); under --job-order exact 17 other rows of the 221 move,
//     by at most 0.3 points of their gap, and none goes out.
//  30. Rule v32: an exact job with reduces, where the cluster applies
//     the job order (JobInfo.JobOrder), after map records whose copies
//     won less than futile-reduce-wins (0.05) of at least
//     futile-map-copies (10) copied maps, when the reduce records copied
//     fewer than 3 reduces, runs futile-reduce-member (sca; the evidence
//     read over the records that copied, as rule v25's) from its first
//     decision, over the busy, idle-slot, tail and spread switches. Rule
//     v14 needs lost reduce copies too; where reduces are alike none is
//     copied, and its evidence never holds. On
//     heldout31/overload-split-skew-same-work-pack-fifo (load 0.91,
//     packed, copies redo their task's own work) no copy won under any
//     policy, and the tail switch ran ras for 28 of 40 jobs: 101.0 s,
//     sca 73.3, hadoop 79.9; 79.3 under v32 (the first jobs still run
//     sda before any record). Rule v8's map signal alone for jobs with
//     reduces (rule v14's trial) lost four crash rows, where map copies
//     lose and reduce copies win: a reduce copy that won, or too few map
//     copies, keeps this switch off. Without the job order (hadoop as
//     the member) it put tuning/small-crash out under --job-order none,
//     and rule v32 is rule v31 there.
//  31. Rule v34: on slot pools (JobInfo.SlotPools) rule v33's wait
//     (reduces-after-maps-idle-share; its parameter help says what it
//     does) does not apply, unless reduces-after-maps-idle-slot-pools:
//     a reduce there holds a reduce slot, which no map can take, so
//     waiting frees nothing for the queued maps. On
//     heldout33/slots-slow-heartbeats-reduce-hangs-sleep-sums-fifo
//     (MRv1 slots, FIFO) 112.0 s -> 110.8 (gs 106.0); no other
//     slot-pool row moved in or out.
//  32. Rule v36: an exact map-only job without an a-priori law, whatever
//     member it runs, kills a running copy of a map once the copy,
//     read at its own pace, would finish no sooner than its running
//     original read at the original's, while fewer than 0.3 of its copied
//     maps were won by a copy (map-only-kill-behind-wins):
//     where a copy redoes its original's work (input skew) on a node no
//     faster, it runs at the original's pace from a later start and
//     cannot win, and it holds a container a queued task would use.
//  33. Rule v37: on slot pools an exact job of one reduce and at least
//     slots-one-reduce-maps (4) maps runs slots-one-reduce-member
//     (hadoop) from its first decision, over the busy, small, tail,
//     spread and futile-reduce members: its lone reduce has no sibling to
//     be judged by, and a copy of it takes one of the few reduce slots
//     other jobs' reduces wait for. On
//     heldout37/overload-one-reduce-slots-reduce-heavy-fair 178.7 s ->
//     97.5 (hadoop 97.5); no other row moved.
//  34. Rule v38: an exact map-only job without an a-priori law, rule v8
//     not firing, runs map-only-lost-paced-member (hadoop) from its first
//     decision when at least map-only-lost-paced (0.75) of the lost map
//     copies over the last map records that lost one (at least 3) ran
//     within 1.25x of their original's pace, those records spread at
//     least map-only-busy-sigma and their copies won less than
//     map-only-lost-paced-wins (0.6): a copy that loses at its original's
//     pace redid the same work on a node no faster, where copies of maps
//     on slow nodes placed on fast nodes still win often enough to keep
//     rule v8 off. heldout38/midload-map-only-same-work-slow-nodes-fair
//     52.4 s -> 47.0 (hadoop 47.5).
//  35. Rule v39: rule v37's switch holds only while the largest of the
//     last 5 records of a job's reduce time after its last map over its
//     map phase (TailFit.ReduceRatio, written once a job's reduces are
//     done, alone for a job of fewer than 6 reduces) is at least
//     slots-one-reduce-ratio (2), once slots-one-reduce-ratio-records (2)
//     carry one: where a heavy map tail makes the map phase the long one,
//     the job keeps its member, whose map copies pay.
//     heldout40/fail-weibull-0.6-slots-crash-midway-fifo 56.2 s -> 34.6
//     (gs 29.0, hadoop 56.2); set 37's row unchanged.
//  36. Rule v43: an exact map-only job without an a-priori law runs
//     map-only-copies-win-member (gs) from its first decision when copies
//     of the last map records' copied maps (at least 3) won at least
//     map-only-copies-win (0.9) of the time, over map-only-member and
//     rules v7's and v35's busy member; rule v12's spread member and
//     rules v8 and v38 stand over it. Where copies nearly always win,
//     GS's test (a copy that would finish first) is borne out.
//     heldout41/hetero-map-only-gamma-half-nodes-2x-fast-fair 27.3 s ->
//     26.5 (grass 25.9), heldout42/hetero-map-only-exponential-fifth-4x-
//     light-0.3-fifo 24.5 -> 23.2 (gs 23.1).
//  37. Rule v44: an exact job with reduces placed while a job with an
//     error bound is still short of it (its bound record, kept in memory)
//     runs error-beside-member (hadoop-legacy), as rule v41 does beside a
//     deadline: the exact job's copies held the containers the bounded
//     jobs' maps waited for.
//     heldout32/error-swim-ljf-hang-or-slow-choice-fifo 150.7 s to the
//     bound -> 114.8 (hadoop 119.4).
//  38. Rule v45: a job with an error bound placed after map records that
//     look memoryless (lower-half spread at least 1.0, the upper half's at
//     most 0.7 of it) runs bounded-memoryless-member (mantri): a copy of
//     such a map is a fresh draw. heldout44/error-exponential-maps-slots-
//     fifo-0.61 14.46 s -> 14.25 (mantri 13.65).
//  39. Rule v46: under bounded-order first, jobs with a deadline are
//     ordered among themselves by their deadline plus their work left
//     over the slots they can hold (deadline-order-by-deadline), a level
//     behind the jobs with an error bound, which keep rule v13's work
//     left; least work first had let smaller deadline jobs pass a larger
//     one until its deadline cut every map.
//     heldout44/deadline-uniform-maps-pack-alike-0.7-containers-fair
//     accuracy 0.9896 -> 1 (tws 0.9981, hadoop 0.9976).
//  40. Rule v47: on containers, auto's GRASS members (grass, gs, ras) of
//     an exact job with reduces give no copy to a reduce that waits on its
//     job's maps (grass-reduce-copies-after-maps): its progress moves at
//     the maps' pace, so t_rem read from it looked like a straggler's and
//     every copy waited on the same maps. Not after map records spreading
//     at least map-only-busy-sigma or reduce records whose copies won.
//     heldout22/interactive-beside-long-batch-fair 18.50 s -> 17.19
//     (hadoop 17.45, the best single).
//  41. Rule v48: a job with an error bound placed after map records of a
//     flat, bounded law (upper-half spread at most 0.35, and at most 0.8
//     of the lower half's) runs bounded-narrow-member (none): no map runs
//     far past the median, so a copy cuts little and holds a container a
//     queued original wants, and the bound drops the last maps anyway.
//     heldout45/error-uniform-maps-noisy-progress-containers-fifo-0.72
//     20.71 s -> 18.79 (sca 19.69, hadoop 20.02). Its second half: after
//     records whose upper half is at least 1.0 and at least 1.3 times a
//     lower half of at least 0.5 (a tail heavier than a lognormal's), the
//     job runs bounded-heavy-upper-member (mantri).
//     heldout18/idle-error-lognormal-heavy 16.27 s -> 15.90 (mantri 15.47).
//  42. Rule v49: on slot pools an exact job with reduces placed after at
//     least 3 map records that show, on average, no slow nodes runs
//     slots-alike-member (grass) in late's place: LATE judges a task only
//     after a minute, so on alike nodes with short tasks it copied almost
//     nothing where GRASS's last-wave copies pay.
//     heldout20/slots-wave-edge-fifo 83.57 s -> 79.04 (grass 75.98,
//     hadoop 81.38).
//  43. Rule v50: under least-remaining-first an exact map-only job with
//     no a-priori mean task time (SWIM jobs, histories) and no map done
//     is keyed by its maps left times the time its running maps would
//     take at the pace of their last reports, not by a stand-in mean of
//     1 ms that put each new job ahead of every started one
//     (map-only-unknown-mean-pace).
//     heldout44/swim-map-only-pack-noise 212.0 s -> 191.4 (ras 189.4,
//     hadoop 209.6).
//  44. Rule v51: a job that loses a map output a reducer had reported it
//     could not fetch hands out a lost-output record; from then on every
//     exact job with reduces (built after it, or running, at its next
//     node failure) re-runs a failed node's completed maps at once, as
//     rule v27's job does after its own lost output, not after
//     failure-rerun-after-ms (lost-output-rerun-all). A node that restarts
//     within the 40 s wait comes back without its outputs.
//     heldout20/rolling-restart 112.4 s -> 88.14 (farms 88.31).
//  45. Rule v52: a job with an error bound hands out, at its bound, a
//     bound-copy record (its done maps that had a copy, and those a copy
//     won); a job with an error bound placed after records whose copies
//     won less than 0.1 of at least 5 copied maps (the last 5 records)
//     runs bounded-copies-lost-member (none): copies that repeat their
//     original's work (data skew) never win, and the bound drops the last
//     maps anyway (bounded-copies-lost-member).
//     heldout49/error-same-work-pareto-1.6-input-skew-bounds-containers-
//     fifo 30.20 s -> 21.88 to the bound (dolly 21.99, hadoop 22.45).
//  46. Rule v53: on containers, an exact job with reduces that the
//     spread switch chose on its reduce records runs spread-busy-member
//     (ras) in grass's place when placed at a busy fraction of at least
//     0.25: RAS is near-optimal beyond two waves (GRASS §3.2), and a
//     reduce copy holds a container a queued task wants.
//     heldout47/hetero-reduce-only-slow-third-eight-container-nodes-pack-
//     fair 51.64 s -> 49.64 (ras 47.32, hadoop 70.18).
//  47. Rule v54: on containers, an exact job with reduces placed after at
//     least 3 map records whose upper half spreads at most 0.25, none of
//     them (nor a reduce record) with slow nodes, runs narrow-exact-member
//     (hadoop) in sda's place on a busy cluster and, small, is not cloned
//     on an idle one: a bounded law leaves a copy or a clone little to
//     cut. heldout53/swim-slow-heartbeats-triangular-noise-reduces-kept-
//     containers-fair 327.8 s -> 314.2 (hadoop 314.6, the best single).
//  48. Rule v55: on slot pools, a busy exact job with reduces that the
//     alike switch (rule v7) chose runs alike-busy-copies-won-member
//     (sda) in sca's place when copies of the last map records that
//     copied won at least 0.3 of at least 3 copied maps: the slow cut
//     misses a continuum of tracker speeds, the copies do not.
//     heldout52/hetero-slots-bell-speed-law-sum-four-uniform-0.8-2.4-
//     three-reduces-fair 46.35 s -> 45.45 (sda 43.59, hadoop 46.58).
//  49. Rule v56: a job with an error bound hands out, at its bound, a
//     bound-spread record (its original maps' spread and upper half
//     then); a job with an error bound placed with no map record held,
//     after bound-spread records whose upper half spreads at most 0.35
//     over a spread of at least 0.2, runs bounded-spread-narrow-member
//     (none) unless rules v24, v40, v45 or v48 apply.
//     heldout54/error-triangular-bounds-sum-two-uniform-0-0.2-poisson-
//     maps-1s-heartbeats-containers-fair 30.12 s -> 23.32 to the bound
//     (sca 23.37, hadoop 26.73).
//  50. Rule v57: on slot pools, an exact job whose own done maps that had
//     a copy number at least 3, a copy winning less than 0.1 of them,
//     starts no more map copies (the member's copy decisions and slot
//     choices of a copy are dropped): copies that redo their task's own
//     work on alike trackers never win (slots-own-copies-lost-copied).
//     heldout50/tenants-three-copy-kinds-same-fresh-resample-reduce-spec-
//     off-slots-fifo 47.65 s -> 46.54 (ese 45.01, hadoop 47.23).
//  51. Rule v58: on slot pools, when rule v28's spread switch fires on
//     the last map records' slow share but that share is below 0.15 (a
//     share a lognormal map law gives alike trackers by chance), a job of
//     at most 2 reduces runs spread-slots-weak-member (sda), not ras.
//     heldout57/load-sum-three-lognormal-gaps-0.82-three-map-slot-
//     trackers-slots-fifo 35.85 s -> 34.77 (sda 33.99, hadoop 35.65).
//  52. Rule v59: on slot pools, a job rule v28 started on ras (map
//     records slow on many trackers) moves to gs once one of its own
//     running maps, at its pace, takes at least 5.5 times the median of
//     its maps (at least 3 done): a tracker that limps loses every task
//     to a fresh copy (spread-slots-limping-member).
//     heldout56/fail-job-maps-tracker-limps-x10-erlang-3-lengths-slots-
//     fair 35.92 s -> 33.23 (gs 32.18, hadoop 50.93).
//  53. Rule v60: on slot pools, a job rule v37 gave hadoop (one reduce)
//     moves to gs once its own original maps (at least 8, on at least 3
//     trackers that ran two or more) spread between trackers at least 1.2
//     times their spread on one tracker, read once: trackers of different
//     speeds make a copy on a faster one win, the lone reduce's too
//     (slots-one-reduce-tracker-member).
//     heldout58/hetero-slots-erlang-4-speed-law-one-reduce-slot-trackers-
//     fifo 31.28 s -> 27.12 (gs 26.17, hadoop 37.38).
//  54. Rule v61: a map-only job, or on slot pools an exact job whose
//     records say its reduces wait on its maps (reduce-to-map-phase
//     ratio at least 2, or too few records), placed after at least 3
//     map records whose upper half spreads at most 0.25 and none with
//     slow nodes, runs sca: a law with no tail leaves a detected copy
//     little to cut (narrow-clone-member).
//     heldout58/swim-reduces-kept-slowstart-0.05-sum-three-uniform-noise-
//     slots-fifo 400.2 s -> 364.0 (sca 349.2, hadoop 432.5);
//     heldout59/swim-map-only-sjf-sum-three-uniform-noise-0.3-1.8-
//     containers-fifo 115.0 -> 111.8 (sca 107.1, hadoop 117.9).
//  55. Rule v62: on containers, an exact job with reduces that rule v6's
//     spread switch (after at least 2 map records) or rule v12's busy
//     switch (alike means beside one slow map record, after copies that
//     won at least 0.1 and a reduce record) would start on grass runs late when the map
//     records' slow nodes are few (the slowest record below 0.2 of its
//     nodes) and not repeated (fewer than 2 records at 0.07): a noise
//     draw, not node speed, and grass's t_rem then reads an uneven
//     progress (spread-once-member).
//     heldout60/swim-reduces-kept-noisy-progress-sigma-0.6-eight-
//     segments-lognormal-0.3-noise-containers-fair 349.2 s -> 337.3
//     (late 329.4, hadoop 338.1).
//  56. Rule v63: a job of at most 2 reduces that rule v7 gives sca (alike
//     records on a busy cluster) keeps no rule v33 wait of its reduces:
//     SCA places a job's reduces among its tasks left, and a reduce held
//     for the last maps then queues behind every other job's maps
//     (alike-busy-no-wait-reduces).
//     heldout43/hetero-mild-continuum-0.8-1.25-same-work-busy-0.85-fair
//     57.99 s -> 56.52 (sca 54.31, hadoop 63.91).
//  57. Rule v64: a job with an error bound (and no deadline) on
//     containers gets no copy of its reduces from its slot-choosing
//     member (grass, gs, ras, mantri): its time to the bound counts its
//     maps only, and a reduce copy holds a container the other bounded
//     jobs' maps wait for (bounded-error-no-reduce-copies).
//     heldout62/error-erlang-4-bounds-mean-0.08-four-copy-heavy-reduces-
//     lognormal-0.7-maps-containers-fair 22.25 s -> 15.38 (mantri 16.22,
//     hadoop 20.25).
//  58. Rule v65: under least-remaining-first an exact map-only job with
//     no a-priori mean task time, placed when no job with reduces was
//     built before it (reduces-built records), is keyed, until its maps
//     report, by its maps left times the prior's run time of maps, not
//     by the 1 ms stand-in that put each new job of a burst ahead of the
//     started ones (map-only-unknown-mean-prior).
//     heldout63/swim-map-only-compressed-day-0.012-uniform-noise-0.6-1.4-
//     containers-fair 112.8 s -> 108.4 (sca 104.2, hadoop 131.5).
//  59. Rule v66: on slot pools, a job of at most 2 reduces runs gs (a)
//     in rule v28's ras's place when the last map records ran slow on at
//     least 0.3 of their nodes, a slow generation of trackers, not
//     chance (spread-slots-strong-member), and (b) from late or hadoop
//     once one of its running maps at its pace takes 3x the median of
//     its maps (slots-limping-member): LATE judges no task younger than a
//     minute, and a copy on the fast generation finishes first.
//     heldout65/hetero-slots-two-generations-new-uniform-0.6-0.9-six-map-
//     slots-old-lognormal-2-three-map-slots-fifo 31.14 s -> 28.36 (gs
//     27.48, hadoop 44.16).
//  60. Rule v67: on slot pools, a job of 3 to 4 reduces that rule v28
//     gives ras (or the tail switch gs) runs mantri when its first
//     placement finds the reduce pool at least 0.9 busy and the last 2
//     placements' reduce-pool records average 0.9 too
//     (spread-slots-reduce-pool-member): in a reduce pool that stays full
//     each reduce copy takes a queued reduce's slot, and RAS copies reduces
//     in their copy phase. heldout48/overload-reduce-pool-0.9-map-pool-
//     0.4-lognormal-reduces-slots-fifo 106.5 s -> 86.55 (mantri 87.18,
//     hadoop 87.99).
//  61. Rule v68: on slot pools, a job of at most 3 reduces that rule v28
//     started on ras (map records slow on at least 0.15 of their nodes)
//     moves to gs (rule v59's member) once its maps are done and a reduce
//     runs: its few reduces are its last wave, where GRASS runs GS, and
//     an early copy is insurance against a slowdown of the reduce's
//     tracker (spread-slots-last-wave-reduces).
//     heldout64/fail-job-reduces-tracker-slowdown-x3-sort-phase-
//     exponential-lengths-three-reduces-slots-fair 44.20 s -> 42.91 (gs
//     42.09, hadoop 55.53).
//  62. Rule v69: on containers, an exact job with reduces built within
//     600 s of a node the fault analyzer declared failed, with no node
//     reported back since (node-failed and node-resumed records that the
//     jobs auto ran hand out), runs sda in a GRASS member's place (gs, ras,
//     grass) while the last map records ran slow on less than 0.23 of
//     their nodes: those few slow nodes are the failed node's stalled maps,
//     not a slow group a copy can move work off, and GRASS's copies took
//     the containers the failure layer's re-runs need (failed-node-member).
//     heldout38/fail-long-shuffle-slowstart-hang-crash-fair 120.5 s ->
//     105.5 (farms 103.9, hadoop 127.9).
//  63. Rule v70: on containers, an exact job of one map and at most one
//     reduce placed below clone-load, where the small member would clone
//     it, runs single-task-member (hadoop, rule v20) once other jobs'
//     clones running hold single-task-clone-budget (0.05, Dolly's default
//     budget) of the slots: Dolly clones within a cluster-wide budget so
//     that clones cannot crowd out other work, and a burst of tiny jobs
//     on an idle cluster each cloned 7 ways (live with the cluster's
//     capacity, serve --rm-url: JobInfo.Copies).
//     heldout19/one-by-one-high-rate 22.400 s -> 22.282 (hadoop 22.282).
//  64. Rule v71: on slot pools, when a node is declared failed holding
//     map outputs of a job while every reduce of it still copying waits
//     on them (not started, or shuffling after every map is done), the
//     failure layer re-runs them at once (rule v27's prompt layer), not
//     after failure-rerun-after-slots-ms: a crash loses them, a hang
//     keeps them, and the reduces learn which only by fetch failures
//     after the read timeout, holding their slots meanwhile; where a
//     reduce copies as the maps end (early slow start, the hang rows) it
//     has them and the wait stays (failure-rerun-needed-slots).
//     heldout59/fail-job-maps-tracker-crash-at-map-end-slowstart-1.0-
//     lognormal-down-expiry-120s-three-reduces-slots-fifo 62.81 s ->
//     55.58 (farms 58.16); heldout41/fail-many-short-reduces-slowstart-
//     1.0-reduce-node-crash-slots-fifo 53.57 -> 46.05 (farms 45.61).
//  65. Rule v72: on slot pools, a job rule v37 gave hadoop (one reduce)
//     placed before slots-one-reduce-ratio-records (2) records of reduce
//     against map times, the first jobs of a cluster, moves to gs once
//     one of its own running maps, at its pace, takes at least 3.5 times
//     the median of its maps: a heavy map tail makes the map phase the
//     long part, which rule v39 reads from the records once they exist
//     (slots-one-reduce-limping-member, slots-one-reduce-limping-factor).
//     heldout40/fail-weibull-0.6-slots-crash-midway-fifo 33.60 s -> 29.48
//     (gs 29.00, hadoop 56.23).
//  66. Rule v73: under order least-remaining-first an exact job with
//     reduces on Hadoop 1 slot pools and no a-priori mean task time (SWIM
//     jobs, histories) is ordered by SCA's levels: once started, ahead of
//     every new job by its count of tasks not done; new, behind every
//     started job. Rule v9's work left read a 1 ms stand-in mean for a new
//     such job, so each new job went ahead of the started ones
//     (unknown-mean-tasks-left; simulator only).
//     heldout62/swim-reduces-kept-slowstart-1.0-lognormal-noise-0.3-slots-
//     fair 432.2 s -> 425.4 (sca 411.0, hadoop 428.2).
//
// Rule v3 (busy-load, small-idle-share, order) was chosen on the bundled
// scenarios and the tuning set (scenarios/tuning) only; scenarios/heldout
// and scenarios/heldout2 were written before it and never used to choose.
// Rule v4 (pareto-busy-member, pareto-busy-load, the busy member's own
// order) was chosen on the bundled scenarios and the tuning set, after
// scenarios/heldout3 was written and run once under v3
// (docs/auto-history.md says what that run showed and what it means for
// the third set as a test of v4).
//
// Failure awareness is always on: a FARMS layer (farms with base none:
// its node-failure copies, retrospective re-runs and fetch-failure re-runs,
// nothing else) sees every event of every job and its decisions go out
// beside the chosen member's; copies never go to a node the fault analyzer
// reports suspect or down. Without node events the layer only re-runs maps
// whose output a reducer could not fetch. Since rule v14 it re-runs a
// failed node's completed maps only once the node has been down
// failure-rerun-after-ms; its copies of the node's running tasks start at
// once, as FARMS §3.2 has them.
//
// Every member of the job's family is built when the engine is built
// (ForJob) and sees every event from the start, so that switching to one
// finds its state current; only the chosen member decides. Each decision's
// reason names the member ("auto→late: ..."); Member() names it for the
// driver (the replay report's per-group members, the shim's counter).
package auto

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
	"github.com/specbridge/specbridge/speculators/xulau"
)

// Name is the registry name.
const Name = "auto"

// Orders of exact jobs with reduces on free slots (ParamOrder).
const (
	// OrderRemaining (rule v9): every ordered job by its work left, a new
	// job's whole work, in one level (a job with a copy of sda's waiting
	// first).
	OrderRemaining = "least-remaining-first"
	// OrderLeastWork (rules v3-v8): started jobs by work left before new
	// jobs by whole work, as Xu and Lau's SDA and ESE order them.
	OrderLeastWork = "least-work-first"
	OrderNone      = "none"
)

// Which exact map-only jobs are ordered (ParamMapOrder), and where jobs
// with a bound go (ParamBoundOrder); OrderNone for neither.
const (
	MapOrderSmall = "small"
	MapOrderAll   = "all"
	BoundedFirst  = "first"
	BoundedLevel  = "level"
)

// Parameter names.
const (
	ParamBounded     = "bounded-member"
	ParamExact       = "exact-member"
	ParamMapOnly     = "map-only-member"
	ParamPareto      = "pareto-member"
	ParamSmall       = "small-member"
	ParamSmallTasks  = "small-tasks"
	ParamCloneLoad   = "clone-load"
	ParamCloneTail   = "clone-tail-index"
	ParamFailure     = "failure-layer"
	ParamIdleShare   = "small-idle-share"
	ParamOrder       = "order"
	ParamBusy        = "busy-member"
	ParamBusyLoad    = "busy-load"
	ParamDetector    = "detector"
	ParamParetoBusy  = "pareto-busy-member"
	ParamParetoLoad  = "pareto-busy-load"
	ParamParetoOrder = "pareto-order"
	ParamTailMember  = "tail-member"
	ParamTailSigma   = "tail-sigma"
	ParamSpread      = "spread-member"
	ParamSpreadCut   = "spread-share"
	ParamSpreadPool  = "spread-slots-member"
	ParamAlikeBusy   = "alike-busy-member"
	ParamAlikeSigma  = "alike-busy-sigma"
	ParamMapBusy     = "map-only-busy-member"
	ParamMapLoad     = "map-only-busy-load"
	ParamMapSigma    = "map-only-busy-sigma"
	ParamFutile      = "futile-member"
	ParamSmallBusy   = "small-busy-load"
	ParamReduceCut   = "reduce-spread-share"
	ParamFutileWins  = "futile-copy-wins"
	ParamReduceTail  = "reduce-tail-sigma"
	ParamContainers  = "containers-member"
	ParamAlikeEvery  = "alike-every-record"
	ParamMapSpread   = "map-only-spread-member"
	ParamMapSpreadTo = "map-only-spread-below"
	ParamSmallBusyM  = "small-busy-member"
	ParamIdleEvery   = "small-idle-every-record"
	ParamMapOrder    = "map-only-order"
	ParamBoundOrder  = "bounded-order"
	ParamDeadlineEDF = "deadline-order-by-deadline"
	ParamRerunAfter  = "failure-rerun-after-ms"
	ParamRerunSlots  = "failure-rerun-after-slots-ms"
	ParamFutileRed   = "futile-reduce-wins"
	ParamCopiesLast  = "copies-last-below"
	ParamCopiesSlots = "copies-last-slots-below"
	ParamCopiesWins  = "copies-last-wins-below"
	ParamTailUpper   = "tail-upper-ratio"
	ParamReducesWait = "reduces-after-maps-share"
	ParamReducesIdle = "reduces-after-maps-idle-share"
	ParamReducesRun  = "reduces-after-maps-running-per-reduce"
	ParamAlikeWide   = "alike-sigma-records"
	ParamBusySlots   = "busy-slots-member"
	ParamAlikeIdle   = "alike-idle-member"
	ParamLostMember  = "lost-output-member"
	ParamAlikeIdleS  = "alike-idle-sigma"
	ParamSingleTask  = "single-task-member"
	ParamUnordMapB   = "unordered-map-only-busy-member"
	ParamUnordBusy   = "unordered-busy-member"
	ParamUnordLoad   = "unordered-busy-load"
	ParamUnordSigma  = "unordered-busy-sigma"
	ParamBusyCopies  = "busy-copies-after-originals"
	ParamFutileBound = "futile-bounded-member"
	ParamFutileRedM  = "futile-reduce-member"
	ParamWavesMember = "deadline-waves-member"
	ParamWaves       = "deadline-waves"
	ParamBeside      = "deadline-beside-member"
	ParamErrBeside   = "error-beside-member"
	ParamMemoryless  = "bounded-memoryless-member"
	ParamMemSigma    = "bounded-memoryless-sigma"
	ParamMemUpper    = "bounded-memoryless-upper"
	ParamNarrow      = "bounded-narrow-member"
	ParamNarrowUpper = "bounded-narrow-upper"
	ParamNarrowRatio = "bounded-narrow-ratio"
	ParamHeavyUpperM = "bounded-heavy-upper-member"
	ParamHeavyUpper  = "bounded-heavy-upper"
	ParamHeavyLower  = "bounded-heavy-lower"
	ParamHeavyRatio  = "bounded-heavy-ratio"
	ParamSpreadSlow  = "spread-slots-slow-member"
	// ParamWeakSlowM, ParamWeakSlowShare and ParamWeakSlowRed are rule v58's.
	ParamWeakSlowM     = "spread-slots-weak-member"
	ParamWeakSlowShare = "spread-slots-weak-share"
	ParamWeakSlowRed   = "spread-slots-weak-reduces"
	ParamTailBusy      = "tail-busy-member"
	// ParamSpreadBusy (rule v53): the spread member's place on containers
	// when the spread switch read reduce records and the job is placed on
	// a busy cluster.
	ParamSpreadBusy = "spread-busy-member"
	// ParamSpreadBusyLoad (rule v53): the busy fraction from which it does.
	ParamSpreadBusyLoad = "spread-busy-load"
	ParamSmallRoom      = "small-room-share"
	ParamSingleBudget   = "single-task-clone-budget"
	// ParamNarrowExact (rule v54): the busy member's place, and no clone on
	// an idle cluster, for an exact job with reduces on containers placed
	// after map records of a narrow upper half.
	ParamNarrowExact = "narrow-exact-member"
	// ParamNarrowExactU (rule v54): the records' upper-half spread at or
	// below which it does.
	ParamNarrowExactU = "narrow-exact-upper"
	ParamFutileMaps   = "futile-map-copies"
	ParamReducesPool  = "reduces-after-maps-idle-slot-pools"
	ParamMapFirst     = "map-only-busy-before-records"
	ParamKillBehind   = "map-only-kill-behind-wins"
	ParamLostPaced    = "map-only-lost-paced"
	ParamLostPacedW   = "map-only-lost-paced-wins"
	ParamLostPacedM   = "map-only-lost-paced-member"
	ParamOneReduce    = "slots-one-reduce-member"
	ParamOneRedMaps   = "slots-one-reduce-maps"
	ParamOneRedRatio  = "slots-one-reduce-ratio"
	ParamOneRedRecs   = "slots-one-reduce-ratio-records"
	ParamRedHeavy     = "bounded-reduce-heavy-member"
	ParamRedHeavyS    = "bounded-reduce-heavy-share"
	ParamWinsMember   = "map-only-copies-win-member"
	ParamWinsShare    = "map-only-copies-win"
	ParamRedAfter     = "grass-reduce-copies-after-maps"
	ParamRedAfterW    = "grass-reduce-copies-wins"
	ParamSlotsAlike   = "slots-alike-member"
	ParamUnknownPace  = "map-only-unknown-mean-pace"
	// ParamUnknownPrior (rule v65): before its maps report, such a job's
	// work read at the prior's run time of its maps.
	ParamUnknownPrior = "map-only-unknown-mean-prior"
	// ParamTasksLeft (rule v73): under least-remaining-first, an exact
	// job with reduces and no a-priori mean, once started, is keyed by its
	// count of tasks not done, ahead of every new job.
	ParamTasksLeft = "unknown-mean-tasks-left"
	ParamLostAll   = "lost-output-rerun-all"
	// ParamFailedNodeMember (rule v69): on containers, a GRASS-family
	// member's place for an exact job started after a node was declared
	// failed.
	ParamFailedNodeMember = "failed-node-member"
	// ParamFailedNodeWithin (rule v69): how lately the node failed.
	ParamFailedNodeWithin = "failed-node-within-ms"
	// ParamFailedNodeSlow (rule v69): the map records' slow share below
	// which the switch applies.
	ParamFailedNodeSlow = "failed-node-slow-below"
	// ParamRerunNeeded (rule v71): on slot pools, no wait before re-running
	// a failed node's outputs that the job's reduces still have to copy.
	ParamRerunNeeded = "failure-rerun-needed-slots"
	ParamBoundLostM  = "bounded-copies-lost-member"
	ParamBoundLostW  = "bounded-copies-lost-wins"
	ParamBoundLostN  = "bounded-copies-lost-copied"
	// ParamBoundNoRed (rule v64): no reduce copy for an error-bound job on
	// containers.
	ParamBoundNoRed = "bounded-error-no-reduce-copies"
	// ParamBoundSpreadM (rule v56): an error-bound job's member after
	// narrow bound-spread records when no map record is held.
	ParamBoundSpreadM = "bounded-spread-narrow-member"
	ParamBoundSpreadL = "bounded-spread-narrow-lower"
	// ParamAlikeWonMember (rule v55): the alike switch's member on slot
	// pools when the last map records' copies won.
	ParamAlikeWonMember = "alike-busy-copies-won-member"
	// ParamAlikeWonShare and ParamAlikeWonCopied (rule v55): how often,
	// of how many copied maps.
	ParamAlikeWonShare  = "alike-busy-copies-won-share"
	ParamAlikeWonCopied = "alike-busy-copies-won-copied"
	// ParamOwnLostCopied and ParamOwnLostWins (rule v57): on slot pools,
	// an exact job whose own done copied maps (at least this many) a copy
	// won less than this share of starts no more map copies.
	ParamOwnLostCopied = "slots-own-copies-lost-copied"
	ParamOwnLostWins   = "slots-own-copies-lost-wins"
	// ParamLimpMember and ParamLimpFactor (rule v59): on slot pools, the
	// member a job the spread switch started on spread-slots-slow-member
	// moves to once one of its own running maps, at its pace, takes at
	// least the factor times the median of its maps.
	ParamLimpMember = "spread-slots-limping-member"
	ParamLimpFactor = "spread-slots-limping-factor"
	// ParamTrackerMember, ParamTrackerSplit and ParamTrackerMaps (rule
	// v60): the member a job rule v37 gave slots-one-reduce-member moves
	// to once its own original maps' times spread between trackers at
	// least the split times their spread within a tracker, read once, at
	// the first Decide with at least the maps' count of readings.
	ParamTrackerMember = "slots-one-reduce-tracker-member"
	ParamTrackerSplit  = "slots-one-reduce-tracker-split"
	ParamTrackerMaps   = "slots-one-reduce-tracker-maps"
	// ParamStrongSlowM and ParamStrongSlowShare (rule v66, a): the member
	// in rule v28's place on slot pools when the last map records' slow
	// share is at least the share, for a job of at most
	// spread-slots-weak-reduces reduces.
	ParamStrongSlowM     = "spread-slots-strong-member"
	ParamStrongSlowShare = "spread-slots-strong-share"
	// ParamSlotsLimpMember and ParamSlotsLimpFactor (rule v66, b): the
	// member a job on slot pools of at most spread-slots-weak-reduces
	// reduces moves to from late or hadoop once one of its running maps,
	// at its pace, takes at least the factor times the median of its
	// maps (rule v59's reading).
	ParamSlotsLimpMember = "slots-limping-member"
	// ParamPoolMember, ParamPoolReduceLoad, ParamPoolRecords and
	// ParamPoolReduces (rule v67): the member of a job rule v28 gives ras
	// (or the tail switch gs) placed while its reduce pool stays full.
	ParamPoolMember      = "spread-slots-reduce-pool-member"
	ParamPoolReduceLoad  = "spread-slots-reduce-pool-load"
	ParamPoolRecords     = "spread-slots-reduce-pool-records"
	ParamPoolReduces     = "spread-slots-reduce-pool-reduces"
	ParamSlotsLimpFactor = "slots-limping-factor"
	// ParamOneRedLimp (rule v72): the member a job rule v37 took before
	// slots-one-reduce-ratio-records ratio records moves to once one of
	// its maps limps.
	ParamOneRedLimp = "slots-one-reduce-limping-member"
	// ParamOneRedLimpFactor (rule v72): the least ratio of a running map
	// at its pace to its job's median map at which rule v72 moves a job.
	ParamOneRedLimpFactor = "slots-one-reduce-limping-factor"
	// ParamLastWaveRed (rule v68): on slot pools, a job of at most this
	// many reduces that the spread switch started on
	// spread-slots-slow-member moves to spread-slots-limping-member once
	// its maps are done: its reduces are its last wave.
	ParamLastWaveRed = "spread-slots-last-wave-reduces"
	// ParamLastWaveShare (rule v68): the least slow share of the last
	// map records at which rule v68 moves a job.
	ParamLastWaveShare = "spread-slots-last-wave-share"
	// ParamNarrowClone (rule v61): the member of a map-only job, or of an
	// exact job on slot pools whose records say its reduces wait on its
	// maps, placed after map records of a narrow upper half below a wider
	// lower one (no tail) and no slow nodes.
	ParamNarrowClone = "narrow-clone-member"
	// ParamNarrowCloneU (rule v61): the records' upper-half spread at or
	// below which it applies.
	ParamNarrowCloneU = "narrow-clone-upper"
	// ParamNarrowCloneR (rule v61): the least reduce-to-map-phase ratio of
	// the records for an exact job on slot pools.
	ParamNarrowCloneR = "narrow-clone-reduce-ratio"
	// ParamSpreadOnce (rule v62): the member in the spread member's place
	// on containers when the slow nodes of the map records are few and
	// not repeated.
	ParamSpreadOnce = "spread-once-member"
	// ParamSpreadRepeat (rule v62): how many of the map records read must
	// show slow nodes for the spread member to run.
	ParamSpreadRepeat = "spread-repeat-records"
	// ParamSpreadOnceBelow (rule v62): the slowest map record's slow share
	// below which rule v62 applies.
	ParamSpreadOnceBelow = "spread-once-below"
	// ParamAlikeNoWait (rule v63): the most reduces of a job that, run by
	// rule v7's alike-busy-member, keeps no rule v33 wait of its reduces.
	ParamAlikeNoWait = "alike-busy-no-wait-reduces"
)

// Arrow joins auto and the member in reasons: "auto→late".
const Arrow = "→"

// policy is auto before it knows its job: its parameters and what it
// needs to build members.
type policy struct {
	bounded, exact, mapOnly, pareto, small string
	smallTasks                             int
	cloneLoad, cloneTail, idleShare        float64
	busyLoad                               float64
	order, busyMember                      string
	paretoBusy                             string
	paretoLoad                             float64
	paretoOrder                            bool
	tailMember                             string
	tailSigma                              float64
	spreadMember                           string
	spreadShare                            float64
	mapBusy, spreadPools, alikeBusy        string
	mapLoad, mapSigma, alikeSigma          float64
	futile                                 string
	futileWins, smallBusy, reduceShare     float64
	reduceSigma                            float64
	containers                             string
	slotsAlike                             string
	alikeEvery                             bool
	mapSpread                              string
	mapSpreadTo                            float64
	smallBusyMember                        string
	idleEvery                              bool
	mapOrder, boundedOrder                 string
	deadlineEDF                            bool
	unknownPace                            bool
	unknownPrior                           bool
	tasksLeft                              bool
	failedNodeMember                       string
	failedNodeWithin                       int64
	failedNodeSlow                         float64
	failure                                bool
	rerunAfter, rerunAfterSlots            int64
	rerunNeeded                            bool
	futileReduce                           float64
	futileMaps                             int
	copiesLast, copiesLastSlots            float64
	copiesLastWins                         float64
	tailUpper                              float64
	reducesWait                            float64
	reducesIdle                            float64
	reducesRunning                         int
	alikeWide                              int
	busySlots                              string
	alikeIdle                              string
	alikeIdleSigma                         float64
	singleTask                             string
	unordMapBusy                           string
	futileBound                            string
	reducesIdlePools                       bool
	mapFirst                               bool
	killBehind                             float64
	lostPaced, lostPacedWins               float64
	lostPacedMember                        string
	redHeavy                               string
	winsMember                             string
	winsShare                              float64
	redAfter                               bool
	redAfterWins                           float64
	redHeavyShare                          float64
	oneReduce                              string
	oneReduceMaps                          int
	oneReduceRatio                         float64
	oneReduceRecords                       int
	futileRedMember                        string
	wavesMember                            string
	besideMember                           string
	errBesideMember                        string
	memoryless                             string
	memSigma, memUpper                     float64
	narrow                                 string
	narrowUpper, narrowRatio               float64
	heavyUpperMember                       string
	heavyUpper, heavyLower, heavyRatio     float64
	lostMember                             string
	lostRerunAll                           bool
	boundLostMember                        string  // rule v52
	boundSpreadMember                      string  // rule v56
	boundSpreadLower                       float64 // rule v56
	boundLostWins                          float64 // rule v52
	boundLostCopied                        int     // rule v52
	boundNoRed                             bool    // rule v64
	alikeWonMember                         string  // rule v55
	alikeWonShare                          float64 // rule v55
	alikeWonCopied                         int     // rule v55
	ownLostCopied                          int     // rule v57
	ownLostWins                            float64 // rule v57
	waves                                  float64
	spreadSlotsSlow                        string
	weakSlowMember                         string  // rule v58
	weakSlowShare                          float64 // rule v58
	weakSlowReduces                        int     // rule v58
	limpMember                             string  // rule v59
	limpFactor                             float64 // rule v59
	lastWaveRed                            int     // rule v68
	lastWaveShare                          float64 // rule v68
	trackerMember                          string  // rule v60
	trackerSplit                           float64 // rule v60
	trackerMaps                            int     // rule v60
	strongSlowMember                       string  // rule v66
	strongSlowShare                        float64 // rule v66
	slotsLimpMember                        string  // rule v66
	slotsLimpFactor                        float64 // rule v66
	oneRedLimpMember                       string  // rule v72
	oneRedLimpFactor                       float64 // rule v72
	poolMember                             string  // rule v67
	poolReduceLoad                         float64 // rule v67
	poolRecords                            int     // rule v67
	poolReduces                            int     // rule v67
	narrowClone                            string  // rule v61
	narrowCloneUpper                       float64 // rule v61
	narrowCloneRatio                       float64 // rule v61
	spreadOnce                             string  // rule v62
	spreadRepeat                           int     // rule v62
	spreadOnceBelow                        float64 // rule v62
	alikeNoWait                            int     // rule v63
	tailBusy                               string
	spreadBusy                             string
	spreadBusyLoad                         float64
	smallRoom                              float64
	singleBudget                           float64
	narrowExact                            string  // rule v54
	narrowExactUpper                       float64 // rule v54
	unordBusy                              string
	unordLoad, unordSigma                  float64
	busyCopiesAfter                        bool
	detector                               string
	env                                    speculators.Env
	seeds                                  [8]uint64
}

// Policy registers auto.
var Policy = speculators.Declare(Name, "auto: per job, the member policy its bounds, shape, task-time law and the cluster's load call for, failure-aware always (GRASS §4, Xu & Lau §III-IV, FARMS §3.2 as switches)", func(b *speculators.Binder, p *policy) {
	b.String(&p.bounded, ParamBounded, "grass",
		"member for jobs with a deadline or an error bound (GRASS §4: grass, RAS early and GS near the bound, led or was within 0.3% on every bundled deadline, error-bound and PoCD scenario over 5 seeds)")
	b.String(&p.mapOnly, ParamMapOnly, "grass",
		"member for exact map-only jobs without an a-priori task-time law (GRASS §3.1's input tasks; grass led on grass-exact over 5 seeds)")
	b.String(&p.pareto, ParamPareto, "ras",
		"member for exact map-only jobs whose task times follow an a-priori Pareto law (JobInfo.TailIndex > 1, Xu & Lau's setting; ras led or was within 2% on each bundled xulau scenario but small-jobs)")
	b.String(&p.exact, ParamExact, "late",
		"member for exact jobs with reduces (LATE §4: at least as fast as hadoop on every bundled scenario of that kind, far faster with slow nodes)")
	b.String(&p.containers, ParamContainers, "grass",
		"member an exact job with reduces starts on when its cluster gives containers (YARN, not Hadoop 1 slot pools), before and beside what earlier jobs show (rule v10: the first jobs of a stream run it, not exact-member; "+
			"5 seeds: heldout9/flaky-nodes +10.2% -> +0.5%, heldout7/slowdown-faults-stream +13.6% -> +6.8%, heldout8/big-small-machines +16.8% -> +8.6%, tuning/slow-few-large +5.6% -> -3.6%; "+
			"late, LATE's setting, stays the member on slot pools, where grass lost 12-40% on late-*); empty: exact-member everywhere, as in rule v9")
	b.String(&p.slotsAlike, ParamSlotsAlike, "grass",
		"member an exact job with reduces starts on when its cluster gives slot pools (Hadoop 1's map and reduce slots, JobInfo.SlotPools) and at least 3 of the last map records are read (alikeMinJobs) "+
			"whose maps ran at least 1.5x their median on fewer than 0.07 of their nodes (spread-share, the mean rule v6 reads) and whose reduces on fewer than reduce-spread-share, in exact-member's place (late); "+
			"the switches that read the records and the busy fraction at placement (tail, spread, futile, one-reduce, busy) stand over it (rule v49). "+
			"LATE's heuristic is for heterogeneous nodes (Improving MapReduce Performance in Heterogeneous Environments, §3-4: copies of tasks slow beside their siblings, capped at 10% of the slots, judged only once they have run a minute), and on alike nodes with tasks under a minute it copies next to nothing; "+
			"there a job's last maps run as a short last wave on mostly idle slots, where copying greedily pays (Trimming Stragglers in Approximation Analytics, §3.2, Guideline 2: GS in a job's last wave; GRASS switches to it by the waves left, §4.1). "+
			"Evidence (5 seeds, exact): heldout20/slots-wave-edge-fifo 83.57 -> 79.04 s (grass 75.98, hadoop 81.38: behind -> +4.0%, in); at seed 1 the 26 jobs it moved ran 77.8 -> 70.6 s (hadoop 75.8, grass 68.8), copies 21 -> 462; "+
			"over 311 rows behind hadoop 12 -> 11, in +1, 10 moved, none out (docs/auto-history.md, rule v49). "+
			"Fitted: the record count (at 1, heldout33/slots-slow-heartbeats-reduce-hangs-sleep-sums-fifo went out, 110.8 -> 114.4 s, gs 106.0: its jobs 3-5 read one or two records before the slow nodes showed); "+
			"the member is rule v10's containers member, not fitted; a job with fewer records (the LATE sorts run alone) keeps exact-member. Empty: exact-member, as in rule v47")
	b.String(&p.small, ParamSmall, "sca",
		"member for small jobs (at most small-tasks tasks) placed while the cluster is lightly loaded (Xu & Lau §IV: cloning pays below the cutoff load)")
	b.Int(&p.smallTasks, ParamSmallTasks, 10, speculators.Span(0, 1<<20),
		"largest task count of a small job, the ones cloned at low load (Dolly's and Xu & Lau's small jobs: 1-10 tasks); 0 never clones")
	b.Float(&p.cloneLoad, ParamCloneLoad, 0.25, speculators.In(0, 1, "a load"),
		"busy fraction of the cluster (slots less idle less running copies, over slots, when the job's first task is placed) below which a small job runs the small member; "+
			"our choice from the bundled scenarios: sca won at offered load 0.25 (small-jobs, tail-1.5) and lost at 0.66 (dolly-small-jobs); copies excluded, the busy fraction of a cluster at load 0.25 early in a run is mostly below 0.25 (0.2 gave up cloning on tail-1.5), and 0.3 still cloned too often at 0.66, below Xu & Lau's omega_U (0.75 at tail index 2), which is for cloning every job")
	b.Float(&p.cloneTail, ParamCloneTail, 1.5, speculators.In(0, 100, "a tail index"),
		"a job of any size whose a-priori Pareto tail index is at most this is cloned like a small job at low load (Xu & Lau §III: "+
			"at alpha 1.5 and below the task time has infinite variance and cloning's bound omega_U reaches 1; sca led on tail-1.5); 0 never")
	b.Float(&p.idleShare, ParamIdleShare, 0.5, speculators.In(0, 1, "a share"),
		"a job with reduces whose task count is at most this share of the cluster's idle slots at its first placement is small too (cloned at low load like a job of small-tasks tasks): "+
			"what makes cloning pay is room for the copies, not a fixed size (tuning scenarios small-idle and small-crash: jobs of 10 to 28 tasks on a near-idle cluster, sca 25-30% faster than late); 0 keeps the fixed cut only")
	b.String(&p.order, ParamOrder, OrderRemaining,
		"order of exact jobs with reduces (and, by pareto-order, of exact map-only Pareto jobs) on free slots, simulator only (live, YARN's scheduler orders jobs): "+OrderRemaining+" (rule v9: every such job, and every job its small or busy member orders, by its work left, a new job's whole work, in one level; sda's copies level first), "+
			OrderLeastWork+" (rules v3-v8, Xu & Lau's SDA/ESE levels 2-3: started jobs by work left before new jobs by work, and the small and busy members' own orders) or "+OrderNone+" (the cluster scheduler's, and the members' own orders; the v2 rule). "+
			"Tuning scenarios mixed-stream and hetero-stream: sda's order alone, without copies, was 18-20% faster than late; heldout9/elephants-mice: a started job of hundreds of maps held every slot before new jobs of a few under "+OrderLeastWork+" (auto 50.9 s, 36.4 under "+OrderRemaining+", ras 35.5, 5 seeds)")
	b.String(&p.busyMember, ParamBusy, "sda",
		"member for an exact job with reduces placed while the cluster's busy fraction is at least busy-load (Xu & Lau §VI: detection, not cloning, above the cutoff load; tuning scenario hetero-stream: sda 217 s, late 280 s)")
	b.Float(&p.busyLoad, ParamBusyLoad, 0.4, speculators.In(0, 1, "a load"),
		"busy fraction (as for clone-load) at or above which an exact job with reduces runs busy-member instead of exact-member; "+
			"0.4 from the tuning scenarios (rule v4, with the busy member's own order, 5 seeds: hetero-stream 202.6 s at 0.5, 196.9 at 0.4, 197.5 at 0.3; hetero-reduces-speeds 230.1, 228.3, 231.4; no bundled scenario changed); 0 never")
	b.String(&p.tailMember, ParamTailMember, "gs",
		"member an exact job with reduces starts on when earlier jobs' map times spread at least tail-sigma (rule v5; GRASS's GS copies every task a fresh copy would beat, which pays on an i.i.d. lognormal tail where LATE's one-minute wait and 10% cap do not)")
	b.Float(&p.tailSigma, ParamTailSigma, 0.5, speculators.In(0, 100, "a log spread"),
		"spread of the most recent finished exact jobs' map times (a lognormal's sigma fitted from their lower half; speculators.TailFit, kept across jobs by the driver as GRASS's samples are) at or above which a new exact job with reduces runs tail-member from its first decision; 0 never")
	b.Float(&p.tailUpper, ParamTailUpper, 0.9, speculators.In(0, 100, "a ratio"),
		"the tail member needs a tail (rule v17): on containers, when the most recent map records' upper-half spread (speculators.TailFit.Upper: (q90 - q50) / z(0.9) of the originals' log times, a beaten or running original at its time over its progress) is below this ratio of their lower-half spread (tail-sigma's), the job skips tail-member and goes on to the switches after it. "+
			"A lognormal's halves are alike (ratio 0.99-1.05 on the lognormal rows, seed 1); a flat wide law's short maps make a wide lower half over a narrow upper one (heldout16/ramp-down-uniform-maps, maps uniform on 5-55 s: 0.55; 5 seeds 83.5 -> 80.8 s, sca 77.3, hadoop 81.3, at 0.75 81.5, at 0.8 81.9: fitted on one row). "+
			"Slot pools keep the tail member (heldout16/slots-bimodal-reduces-fifo, gamma shape-4 maps, 0.84: 75.9 s with gs, 86.0 without); records without an upper half (written before v17) keep it too; 0 never, as in rules v5-v16")
	b.String(&p.spreadMember, ParamSpread, "grass",
		"member an exact job with reduces starts on, on a cluster of containers (not Hadoop 1 slot pools), when earlier jobs' maps ran slow on at least spread-share of their nodes (rule v6; GRASS's pull mode places originals and copies on the fast nodes' free slots; 5 seeds, tuning files on containers with node speeds: grass within 2.3% of the best on all five, ras 11% behind on small-idle, gs 32% on hetero-reduces-speeds)")
	b.Float(&p.spreadShare, ParamSpreadCut, 0.07, speculators.In(0, 1, "a share"),
		"share of the nodes that ran the most recent finished exact jobs' maps on which those maps took at least 1.5 times their job's median (speculators.TailFit.Slow, kept across jobs as the map-time spread is), at or above which a new exact job with reduces on containers runs spread-member from its first decision; 0 never. "+
			"0.07 from the tuning set (5 seeds): above the bundled alike-node rows' shares (at most 0.05: one slow or delayed node in twenty, fas-delays, farms-10gb), below tuning/slow-few-large's (an eighth of the nodes slow: 155.8 s at 0.06, 157.5 at 0.07, 165.5 at 0.08, 171.4 at 0.1; grass 152.7)")
	b.String(&p.spreadPools, ParamSpreadPool, "ese",
		"member an exact job with reduces starts on, on a cluster of Hadoop 1 slot pools, when earlier jobs' maps ran slow on at least spread-share of their nodes (rule v7); empty: none, as in rule v6")
	b.String(&p.tailBusy, ParamTailBusy, "ras",
		"tail-member's place when the job's first placement finds the cluster's busy fraction (originals only, as for busy-load) at or above busy-load (rule v29): the tail switch (rule v5) fires on earlier jobs' map spread, and until v28 its member stood over the busy cut. "+
			"GRASS's Guideline 3 (Trimming Stragglers in Approximation Analytics, §3.2): RAS is near-optimal for a job of more than two waves, GS for one of fewer; GRASS approximates a job's waves by the cluster's utilization (§4.1). "+
			"--job-order exact, 5 seeds: heldout27/overload-stingy-caps-fifo 68.6 -> 55.9 s (ras 54.7, hadoop 66.2) in, none out: 187 -> 188 of 209 rows, behind hadoop 14 -> 13. "+
			"Choice: the cut is busy-load (0.4), not a cut of its own: at 0.45 and 0.5 heldout11/two-tenants-tails went out (+5.1%, gs 46.7), at 0.55 the row came in too (57.0 s), at 0.6 not (60.2). "+
			"Empty: tail-member at any load, as in rules v5-v28")
	b.String(&p.spreadBusy, ParamSpreadBusy, "ras",
		"spread-member's place on a cluster of containers when the spread switch chose the job on its reduce records (rule v8: the last reduce records' reduces ran at least 2x their job's median on at least reduce-spread-share of their nodes; rule v9: their reduce times spread at least reduce-tail-sigma) and its first placement finds the busy fraction (originals only) at or above spread-busy-load (rule v53); the reason ends \"then placed at busy fraction B, at or above 0.25 (spread-busy-member)\". Rule v29's reading of the tail switch, for the spread switch, whose member stood over the busy cut until now. "+
			"GRASS's Guideline 3 (Trimming Stragglers in Approximation Analytics, §3.2): GS is near-optimal for a job of fewer than two waves, RAS for more, and GRASS reads a job's waves from the cluster's utilization, one of the factors its learned switch compares samples by (§4.1); our grass measures waves in the job's own width at its first check and runs GS for a job it finds under 1.5 waves, whatever queue stands behind it. A reduce's copy holds its container through a whole shuffle, and on a loaded cluster that container is a queued job's task not run (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III); RAS copies only where the copy saves resources as well as time. "+
			"--job-order exact, 5 seeds, 341 rows: heldout47/hetero-reduce-only-slow-third-eight-container-nodes-pack-fair (a third of the nodes 3x slower on reduces, pack-first, fair, load 0.7: 39 of 40 jobs ran grass at seed 1) 51.64 -> 49.64 s (ras 47.32, hadoop 70.18), heldout16/one-slow-node-many-reduces 78.03 -> 76.70 (sda 73.85) and heldout9/reduce-heavy-busy 70.21 -> 68.86 (ras 66.76): all three out -> in; 29 rows moved, none out, behind hadoop 12 -> 12 (heldout15/few-fat-nodes 142.3 -> 142.8, behind before and after). "+
			"Fitted: the reduce records only, and the cut. With slow maps too (rule v6) heldout47/midload-poisson-whole-second-gaps-0.8-constant-ten-map-jobs-pareto-2.2-containers-fifo came in at +5.0% (17.85 -> 17.54 s, ras 16.70: a Pareto law's tail on alike nodes reads as slow nodes), but heldout10/skew-slow-nodes, heldout11/two-tenants-tails and heldout40/midload-long-reduces-slowstart-0.5-slow-rack-containers-fair went out and heldout27/clockwork-identical-jobs-gamma-fifo behind hadoop (net -1); no cut on load, map spread or upper-half ratio kept the one and not the others. "+
			"Slot pools keep rule v7's and v28's members. Empty: spread-member at any load, as in rules v8-v52")
	b.Float(&p.spreadBusyLoad, ParamSpreadBusyLoad, 0.25, speculators.In(0, 1, "a load"),
		"the busy fraction at a job's first placement (originals only) at or above which spread-busy-member takes the spread member's place (rule v53). "+
			"0.25 is rule v8's small-busy-load, the lowest busy cut auto reads; chosen between it and busy-load (0.4, rule v29's) on the target: at 0.4 the hetero row 50.68 s (+7.1%, out; +2 in over 341 rows, none out), at 0.25 49.64. "+
			"At 0 (every such job) heldout11/reduce-phase-slowdowns went out (50.80 s, gs 48.17); 0.2 / 0.3 gave the hetero row 50.12 / 50.23 (5 seeds: the row's seed spread is 4.7 s)")
	b.String(&p.narrowExact, ParamNarrowExact, "hadoop",
		"member in the busy member's (sda's) place for an exact job with reduces on a cluster of containers placed at or above busy-load after at least 3 map records whose upper-half spread (rule v17's, (q90 - q50) of log times over z(0.9), weighted by maps; rule v48 reads it for error-bound jobs) is at most narrow-exact-upper, when no map record ran slow (at least 1.5x its median) on spread-share of its nodes and no reduce record on reduce-spread-share (rule v12's every-record reading); such a job small by its size (small-tasks) placed below clone-load is not cloned either, and keeps its member (rule v54). "+
			"The reason ends \"the last N map records' upper half spread U, at most 0.25, and no record ran slow on 0.07 of its nodes: a copy's gain is bounded (narrow-exact-member)\". "+
			"The slowest maps of such records run not far past their median, so a copy can save at most that gap while it holds a container for its whole run: a clone's gain is the least of two draws, which pays where the task law has a tail and the load is below the cutoff lambda_U (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III), and a bounded law has little to cut; without slow nodes there is no faster node for a copy to move to (LATE §4). "+
			"Where load comes in bunches (SWIM's trace, FARMS §4) a small job placed in an idle moment clones into the containers of the bunch that follows, and on the busy cluster sda's detection copies tasks a copy cannot finish much sooner. "+
			"--job-order exact, 5 seeds, 359 rows: heldout53/swim-slow-heartbeats-triangular-noise-reduces-kept-containers-fair (40 SWIM jobs with their reduces, a triangular noise on task times, 6 s heartbeats, containers under fair, load about 0.54 in bunches) 327.8 -> 314.2 s (hadoop 314.6, the best single; sda 323.5, sca 316.5): behind hadoop -> in, 36,565 container-s wasted a run against 51,179; 6 rows moved, none out, behind hadoop 12 -> 11. "+
			"Fitted: the reading and the cut. Map records on the target read an upper half of 0.16-0.24 (their spread 0.16-0.30); the busy part alone gave 320.3 s, the small jobs' clones alone 320.2. A first cut of 0.3 without the slow-node reading, with the idle-slot cut's clones too, took the target to 314.1 but put four rows out or behind (heldout11/reduce-phase-slowdowns 50.89, heldout47/hetero-reduce-only-slow-third-eight-container-nodes-pack-fair 49.96, heldout7/slowdown-faults-stream 72.76, heldout22/interactive-beside-long-batch-fair 17.47 behind hadoop's 17.45); the slow-node reading keeps the set-47 row, whose first jobs before any slow reduce record ran 1.6 s slower under hadoop at one seed. "+
			"Members on the target: none 313.8, hadoop-legacy 314.3, late and farms 314.9 (hadoop kept: it copies least among them but none). Not replayed under --job-order none or yarn. "+
			"Not for the alike member (sca, rule v7), the small busy member (ras, rule v12) or jobs of more than small-tasks tasks cloned by the idle-slot cut (rule v3): alike-busy-member hadoop too gave the target 313.9 s against 314.2 (not tried over every row), and the idle-slot cut's clones taken too (without the slow-node reading) put heldout11/reduce-phase-slowdowns out (50.9 s, gs 48.17). "+
			"Slot pools keep rule v19's busy member (hadoop already). Empty: rule v53")
	b.Float(&p.narrowExactUpper, ParamNarrowExactU, 0.25, speculators.In(0, 10, "a spread"),
		"the upper-half spread of the last map records (rule v17's, weighted by maps; at least 3 records) at or below which narrow-exact-member applies (rule v54). "+
			"Cuts on the target (5 seeds): 0.15 reaches none of its records (327.8 s), 0.2 316.9 (behind hadoop), 0.25 to 0.35 314.2. 0.25 is kept below heldout22/interactive-beside-long-batch-fair's records (0.30-0.31): at 0.3 that row 17.40 -> 17.43 s against hadoop's 17.45, and without the slow-node reading behind it (17.47)")
	b.Float(&p.smallRoom, ParamSmallRoom, 0.25, speculators.In(0, 1, "a share"),
		"a job small by its size (small-tasks; not one heavy-tailed by its a-priori law) runs the small member at its first placement only if its tasks are at most this share of the idle slots (rule v30): "+
			"a clone needs a slot of its own (Xu & Lau §IV-A solve their cloning problem P2 only when the jobs' tasks fit in the idle machines, 'a large room for making clones'), and on a cluster of a few nodes a job of ten tasks fills the idle slots without its clones. "+
			"--job-order exact, 5 seeds: heldout28/tiny-dev-cluster-three-nodes-fifo (12 containers, jobs of 5-13 tasks) 27.2 -> 26.2 s (ras 25.9, hadoop 26.9) in, none out: 193 -> 194 of 215 rows, behind hadoop 13 -> 12. "+
			"Rule v31, 0.25 (room for three clones a task; 0.5 in rule v30): heldout29/error-tiny-jobs-one-drop-fair (48 containers, jobs of 5-12 maps, error bounds) 14.13 -> 13.78 s to the bound (gs 13.35) in, none out: 199 -> 200 of 221 rows, behind hadoop 13. "+
			"Choice: fitted on that row (0.1-0.25 bring it in; 0.25 moves least from v30). 0: the size alone, as in rules v3-v29")
	b.Float(&p.singleBudget, ParamSingleBudget, 0.05, speculators.In(0, 1, "a share"),
		"share of the cluster's slots that other jobs' clones running at once (ClusterView.SpeculativeRunning at the job's first placement) may hold before an exact job of at most one map and at most one reduce on containers, placed below clone-load where the small member would clone it, runs single-task-member (rule v20's hadoop) instead (rule v70); the reason says \"with N clones running, at least 0.05 of S slots (single-task-clone-budget)\". "+
			"Dolly clones small jobs only within a cluster-wide budget, 5% of the slots by default, so that clones cannot crowd out other work (Ananthanarayanan et al., Effective Straggler Mitigation: Attack of the Clones, NSDI'13, as FARMS §5 and Xu & Lau §II describe it); Xu & Lau §IV-A clone into idle machines, and the busy fraction rule v3 reads counts originals only, so a burst of tiny jobs on an idle cluster each cloned its two tasks 7 ways until the clones held the containers the next jobs' originals waited for; a task with no sibling gives a detector nothing to compare it with (rule v20). "+
			"heldout19/one-by-one-high-rate (60 containers, 1,300 jobs of one map and one reduce about every 0.5 s, copies redraw the task's own work; 5 seeds, exact): 22.400 s -> 22.282, hadoop 22.282 (behind hadoop -> level): under v66 its first 8 jobs, placed within 2.3 s of the start at busy fractions 0.00-0.12, ran sca with 12 copies each (none faster), and jobs 15-40 waited 2-12 s more than under hadoop. "+
			"Over the 443 rows (sets 1-67) behind hadoop 11 -> 10, in +1, none out; two other rows moved: heldout37/hetero-tiny-jobs-beside-mid-jobs-pareto-two-kinds-fair (tiny jobs of 1-4 maps beside mid jobs, pareto maps, two node kinds: clones pay there) 34.53 -> 35.03 (gs 34.54, hadoop 39.40; in), heldout9/elephants-mice 33.60 -> 33.56. "+
			"Slot pools are left out, fitted on one row: heldout17/slots-tiny-adhoc-light (jobs of 1-3 maps and a reduce at load 0.09, fresh copies: Dolly's case, where clones pay) 13.80 s -> 17.15 at 0.05, 15.91 at 0.1, 15.14 at 0.2, 14.35 at 0.3, 13.88 at 0.5 (sca 13.7), while the target needs at most 0.2 (22.283 at 0.25-0.3, behind hadoop). "+
			"Choice: 0.05 is Dolly's default budget, not fitted (0.05-0.2 give the target the same 22.282; heldout37 34.60 at 0.2). Live, with the cluster's capacity (serve --rm-url), the sidecar counts every served job's copies (JobInfo.Copies, xulau.LiveView); without it a job sees its own copies only and the switch does not act. 0: rule v66, no budget")
	b.String(&p.spreadSlotsSlow, ParamSpreadSlow, "ras",
		"spread-slots-member's place on Hadoop 1 slot pools when the spread switch fires on slow nodes (the last map records' slow share at least spread-share, or the reduce records' at least reduce-spread-share: rules v7-v8), not on reduce times that spread alone (rule v9, which keeps spread-slots-member) (rule v28): "+
			"ESE backs up a task whose time left passes sigma (1.7) times the job's expected task time (Xu & Lau §VI), a mean that the slow nodes' own tasks raise, so a task 1.6-2.5x slow on one of many slow nodes seldom passes it; "+
			"RAS copies whenever the copy saves resources, c x t_rem - (c+1) x t_new > 0 (GRASS §3), which a task on a node twice as slow as a fresh copy's does from its start. "+
			"--job-order exact, 5 seeds: heldout27/hetero-two-slow-kinds-pools-fair 96.7 -> 81.1 s (ras 78.8), heldout26/slots-old-gen-reduce-pools-fair 96.3 -> 89.5 (ras 88.8, hadoop 89.9), heldout6/slots-three-speeds-reduces 157.4 -> 141.7 (ras 144.8) in: 179 -> 182 of 203 rows, none out; "+
			"ras for rule v9's path too (ras as spread-slots-member) took heldout12/multi-wave-reduces 125.7 -> 131.0 (sda 124.9); grass, gs, sda or hadoop as this member brought in at most one row. Empty: spread-slots-member, as in rules v7-v27")
	b.String(&p.weakSlowMember, ParamWeakSlowM, "sda",
		"spread-slots-slow-member's place (rule v28's ras) on Hadoop 1 slot pools when the spread switch fires on the last map records' slow share (maps at least 1.5x their job's median on at least spread-share of their nodes) but that share is below spread-slots-weak-share, for a job of at most spread-slots-weak-reduces reduces (rule v58); reduce records' slow share (rule v8) keeps rule v28's member. "+
			"A lognormal map law of sigma 0.3-0.4 puts one map in six to eleven past 1.5x its median by chance (Mantri §2: outliers from the task's own work, not its node), and a tracker's share of a job is one to three maps, so a slow share of 0.07-0.14 is what alike trackers show; RAS's saving test (GRASS §3) then copies maps whose fresh copy is no faster on the average, taking slots from queued jobs, where sda detects the real straggler and orders jobs least work first (Xu & Lau §IV). "+
			"--job-order exact, 5 seeds: heldout57/load-sum-three-lognormal-gaps-0.82-three-map-slot-trackers-slots-fifo 35.85 -> 34.77 s (BEHIND hadoop 35.65 -> in, +2.3%; sda 33.99), heldout53/load-heavy-lognormal-gaps-sigma-1.6-0.74-slots-fifo 39.47 -> 38.94 (sda 37.38, hadoop 40.54: out -> in), heldout57/hetero-slots-sum-two-pareto-3-speed-law-floor-nominal-fair 35.20 -> 34.98 (sda 33.45, hadoop 40.45: out -> in); 383 rows (sets 1-57): 17 moved, in 315 -> 318, none out, behind hadoop 11 -> 10; the largest costs heldout56/fail-job-maps-tracker-limps-x10-erlang-3-lengths-slots-fair 35.92 -> 37.23 (gs 32.18, out before and after) and heldout43/fail-per-job-map-node-slowdowns-pareto-lengths-slots-fifo 41.69 -> 42.45 (grass 40.66, in). "+
			"Choice: the member is the best single on the three rows, not fitted further; the cut, 0.15, sits between the rows' shares (0.07-0.14 at seed 1) and those of the rows rule v28 was built on (heldout27/hetero-two-slow-kinds-pools-fair and heldout51/hetero-slots-pareto-2.5-tracker-speeds-spread-fifo: 0.14-0.25 at seed 1), read off one seed. Empty: rule v28's member at any share, as in rules v28-v57")
	b.Float(&p.weakSlowShare, ParamWeakSlowShare, 0.15, speculators.In(0, 1, "a share"),
		"the last map records' slow share (as for spread-share) below which rule v28's spread switch on slot pools runs spread-slots-weak-member instead of spread-slots-slow-member (rule v58); 0 never. Fitted on one seed's shares (see spread-slots-weak-member)")
	b.Int(&p.weakSlowReduces, ParamWeakSlowRed, 2, speculators.In(0, speculators.MaxJobTasks, "a count"),
		"most reduces of a job that rule v58 (spread-slots-weak-member) applies to: a job of more reduces keeps rule v28's member at any share. "+
			"Where tracker pools are slow for reduces (heldout26/slots-old-gen-reduce-pools-fair, heldout27/hetero-two-slow-kinds-pools-fair, heldout39/overload-slowstart-all-pareto-reduces-slow-quarter-slots-fair: 5-6 reduces a job), ras backs a reduce up from its start on a node twice as slow as a fresh copy's (GRASS §3) and a job's many reduces make that pay, while the first records' shares there can read 0.09-0.14; a job of one or two reduces is its map phase, where sda's detection suffices (Xu & Lau §IV). "+
			"Without the bound (every job) rule v58 took heldout26's row behind hadoop (89.54 -> 90.28 s, hadoop 89.89), heldout27's 81.08 -> 85.23 and heldout52/swim-reduces-kept-slow-heartbeats-10s-slowstart-0.8-slots-fair behind hadoop (409.3 -> 424.8, hadoop 423.4; with the bound 411.8). "+
			"Fitted: 2 is the most reduces of the three target rows")
	b.String(&p.alikeBusy, ParamAlikeBusy, "sca",
		"busy member for an exact job with reduces when earlier jobs' map times spread less than alike-busy-sigma and their maps ran slow on less than spread-share of their nodes (rule v7: alike nodes, tight task times; Xu & Lau's SCA above the cutoff load clones nothing and orders jobs by fewest tasks left)")
	b.Float(&p.alikeSigma, ParamAlikeSigma, 0.25, speculators.In(0, 100, "a log spread"),
		"spread of the most recent finished exact jobs' map times (as for tail-sigma) below which, with their slow-node share below spread-share, a busy exact job with reduces runs alike-busy-member instead of busy-member; 0 never")
	b.String(&p.mapBusy, ParamMapBusy, "sda",
		"member for an exact map-only job without an a-priori law placed while the cluster's busy fraction is at least map-only-busy-load, when earlier jobs' map times spread at least map-only-busy-sigma (rule v7; Xu & Lau §VI: detection and least-work-first job order above the cutoff load)")
	b.Float(&p.mapLoad, ParamMapLoad, 0.7, speculators.In(0, 1, "a load"),
		"busy fraction (as for clone-load) at or above which an exact map-only job without an a-priori law runs map-only-busy-member, if map-only-busy-sigma holds too; 1 never")
	b.Float(&p.mapSigma, ParamMapSigma, 0.4, speculators.In(0, 100, "a log spread"),
		"spread of the most recent finished exact jobs' map times (as for tail-sigma) at or above which an exact map-only job placed at map-only-busy-load or above runs map-only-busy-member; 0 never")
	b.Float(&p.smallBusy, ParamSmallBusy, 0.25, speculators.In(0, 1, "a load"),
		"busy fraction (as for clone-load) at or above which a small exact job with reduces (at most small-tasks tasks) runs busy-member, not exact-member nor alike-busy-member (rule v8: LATE's one-minute wait does nothing for a job of a few short tasks; heldout7/tiny-jobs-pack-mid, 5 seeds: 39.9 s at busy-load 0.4, as in rule v7, 39.3 at 0.25, hadoop 39.7); 1 never")
	b.Float(&p.reduceShare, ParamReduceCut, 0.045, speculators.In(0, 1, "a share"),
		"share of the nodes that ran the most recent finished exact jobs' reduces (jobs of at least 6 reduce times) on which those reduces took at least 2 times their job's median (speculators.TailFit.ReduceSlow, rule v8) at or above which a new exact job with reduces runs the spread member as for spread-share, and below which only the alike member may run; 0 never. "+
			"0.07 in rules v8-v16, as spread-share (5 seeds, heldout7/reduce-slow-nodes-stream: 91.9 s at 0.07 and 0.1, 97.2 at 0.15; no other row moved). "+
			"0.045 since rule v17, one slow node in up to 22: a single node 6x slower among 20 reads 0.05 in every reduce record, and below the cut the alike member (sca, which above the cutoff load copies nothing) ran its reduces 6x long "+
			"(heldout16/one-slow-node-many-reduces, 5 seeds: 150.5 s at 0.07, 85.7 at 0.05 and 0.045, sda 73.9, hadoop 126.2; also heldout7/reduce-slow-nodes-stream 84.9 -> 84.1, grass 80.7; fitted on one row); 0.07 restores rule v16")
	b.Float(&p.reduceSigma, ParamReduceTail, 0.25, speculators.In(0, 100, "a log spread"),
		"spread of the most recent finished exact jobs' reduce times (fitted as for tail-sigma from their original reduces, jobs of at least 6; speculators.TailFit.ReduceSigma, rule v9) at or above which a new exact job with reduces runs the spread member as for spread-share, and below which only the alike member may run; 0 never")
	b.String(&p.futile, ParamFutile, "hadoop",
		"member for an exact map-only job without an a-priori law when copies of the most recent exact jobs' maps won less than futile-copy-wins of the time (rule v8: copies doing the same work as their originals on alike nodes, data skew, where every policy that copies more than hadoop loses), and for an exact job with reduces when reduce copies won less than futile-reduce-wins (rule v14)")
	b.Float(&p.futileWins, ParamFutileWins, 0.1, speculators.In(0, 1, "a share"),
		"share of the copied maps of the most recent exact jobs (at least futileMinCopies of them) a copy won, below which an exact map-only job without an a-priori law runs futile-member; 0 never")
	b.Float(&p.futileReduce, ParamFutileRed, 0.05, speculators.In(0, 1, "a share"),
		"share of the copied reduces of the most recent jobs' reduce records (at least futileMinCopies of them) a copy won, below which, when the most recent map records' copied maps were won below it too (or fewer than futileMinCopies were copied), an exact job with reduces runs futile-member from its first decision, over the busy, idle-slot and spread switches, not over the tail switch (rule v5) when the map records spread at least tail-sigma (rule v14: reduce skew, where a copy redoes its task's work; "+
			"5 seeds: heldout13/pareto-reduce-skew-light 236.7 -> 177.3 s, hadoop 176.5, none 176.4. Reduce copies alone at 0.1 lost four rows where map copies win (heldout11/two-tenants-tails +3.2% -> +25.3%); both at 0.1 cost heldout/failures-mixed 62.6 -> 63.7 s, whose crash stream's map copies won 0.09); 0 never, as in rules v8-v13")
	b.Int(&p.futileMaps, ParamFutileMaps, 10, speculators.In(0, speculators.MaxJobTasks, "a count"),
		"fewest copied maps over the most recent map records that copied, all but futile-reduce-wins of them lost, with fewer than futileMinCopies reduces copied over the reduce records, for an exact job with reduces, where the cluster applies the job order (JobInfo.JobOrder), to run futile-reduce-member (sca) from its first decision, over the busy, idle-slot, tail and spread switches (rule v32: copies that redo their task's own work on alike nodes, where rule v14's evidence never holds because no reduce is copied; heldout31/overload-split-skew-same-work-pack-fifo, 5 seeds: 101.0 -> 79.3 s, sca 73.3, hadoop 79.9; at 3 heldout19/iterative-chains-fair went behind hadoop on a record of 4 lost copies, at 20 the row above stayed behind hadoop; without the order it cost tuning/small-crash 49.6 -> 54.7 s, and rule v32 is rule v31 there); 0 never, as in rules v14-v31")
	b.Float(&p.copiesLast, ParamCopiesLast, 0.2, speculators.In(0, 1, "a share"),
		"slow-node share (as for spread-share: the mean over the most recent map records) below which, under order "+OrderRemaining+" (simulator only), an exact job with reduces whose every task is running or done and that has no copy requested and not started waits on free slots behind every job with an original to place (rule v16): "+
			"in order's one level a job near its end has the least work left, and a member that chooses slots (grass) took every free slot for copies of its last tasks while jobs queued behind it (heldout15/daily-cycle, a peak that offers 1.25x the cluster, 5 seeds: 81.6 -> 67.5 s, sca 66.1, hadoop 72.9; also heldout15/few-fat-nodes 142.7 -> 141.0, heldout5/slow-tenth-large 118.1 -> 115.8, heldout14/late-joining-nodes 66.5 -> 60.6). "+
			"At or above the share the job keeps its place: copies of the tasks on slow nodes are what the spread member is for (fitted on two rows: daily-cycle 71.9 s at 0.15, 68.0 at 0.18, 67.2 at 0.22, 66.8 at 0.25; heldout2/hetero-four-speeds, four node speeds, 149.9 s under v15, 152.5 at 0.2, 152.4 at 0.22, 160.3 at 0.25, ras 146.0). A copy requested from Decide (the failure layer's, a member's that pushes copies) keeps the job's place too; 0 never, as in rules v9-v15")
	b.Float(&p.copiesLastWins, ParamCopiesWins, 0.5, speculators.In(0, 1, "a share"),
		"share of the copied maps a copy won, pooled over the most recent copiesWinsRecords (20) map records the prior keeps (at least futileMinCopies copied maps), below which rule v16 applies on containers although the slow-node share is at or above copies-last-below, unless the prior holds a deadline record (rule v42): "+
			"rule v16 keeps the place of a job on slow nodes because copies of its tasks on them are what the spread member is for (LATE §5.2); where copies mostly lose, its last tasks' time is their own work (data skew: Mantri §2's workload imbalance, a copy redoing the same split), and a copy taking a free slot ahead of a queued job's original only delays that job, against least remaining work first's aim (Xu & Lau §IV-B). "+
			"heldout10/skew-slow-nodes (a quarter of the nodes 2.5x slower, a skewed tenth of the maps, copies do the same work; slow share 0.29-0.45, copies won 0.13-0.73 a record, pooled under 0.5 on about two thirds of the decisions), 5 seeds: 124.1 -> 115.6 s, hadoop 118.0, sda 110.3 (behind hadoop -> in): a burst of arrivals (13 jobs in 150 s) queued behind grass's copies of skewed maps. "+
			"On the slow-node rows the pooled share stays above 0.5 (heldout2/hetero-four-speeds 0.72 a record, 148.1 -> 149.5 s, ras 146.0; tuning/hetero-reduces-speeds 218.3 -> 214.6). "+
			"Fitted: 20 records (15: 116.1 s, 30: 113.5) and 0.5 (0.45: 115.8, +5.0% of sda, out; 0.55: 115.4). Not with a deadline record: heldout25/deadline-skew-slow-quarter-pack-fifo (deadline jobs beside the same skew and slow quarter) went behind hadoop, accuracy 0.8234 -> 0.8222 (hadoop 0.8231); with the exclusion unchanged. "+
			"Over the 281 tuned rows: behind hadoop 13 -> 12, in +1, none out; 33 moved, the largest loss heldout5/hang-two-speeds-reduces 84.0 -> 84.8 s (grass 85.8). "+
			"Tried first: the slow share's excess over chance (less the share of nodes whose median a random spread of the job's times would put past 1.5x) in rule v16's place took the row to 112.3 s but put 7 rows out and 2 behind hadoop (heldout2/hetero-four-speeds 159.6 s, tuning/hetero-stream-containers +0.7% -> +6.5%): on real slow nodes it reads low too. 0 never, as in rules v16-v41")
	b.Float(&p.copiesLastSlots, ParamCopiesSlots, 0, speculators.In(0, 1, "a share"),
		"copies-last-below for a job on Hadoop 1 slot pools (rule v17; simulator only, as the order is): 0 never, as in rules v9-v15; 0.2 restores rule v16. "+
			"On slot pools the originals placed first are other jobs' maps and their reduces, which wait on reduce slots from slow-start for map output, and copies of a job's long reduces waited behind them "+
			"(heldout16/slots-bimodal-reduces-fifo, reduces of two modes, one in four 4x the others, FIFO; 5 seeds: 75.9 s at 0, 86.4 at 0.2, grass 62.2, hadoop 106.9; 584 copies a run at 0, 517 at 0.2); no other row moved")
	b.Float(&p.reducesWait, ParamReducesWait, 0.3, speculators.In(0, 1, "a share"),
		"share of the cluster's slots (the capacity at the job's first placement, as for clone-load) at or above which an exact job's reduce count makes it wait, under order "+OrderRemaining+" (simulator only), while its maps are all running or done but not all done and it has reduces left to place: it goes behind every job with an original to place, as copies-last-below's jobs do, until its last map is done (rule v18). "+
			"In order's one level the job with the least work left took every free slot for the reduces slow-start allows, and they held their containers copying while its last maps ran and other jobs' maps queued "+
			"(heldout17/two-generations-many-reduces, 64 reduces a job on 120 containers, 0.53; 5 seeds: 121.0 -> 91.0 s, ras 99.4, hadoop 100.2; heldout16/one-slow-node-many-reduces, 30 on 80, 0.38: 85.7 -> 77.8, sda 73.9). "+
			"Fitted on those two rows (and heldout12/multi-wave-reduces, slot pools, 30-40 reduces on 60 slots: 126.7 -> 125.7, sda 124.9): with every job with reduces waiting, whatever its share, eight rows of a few reduces a job fell out (tuning/hetero-stream-containers +2.0% -> +12.8%, heldout2/hetero-four-speeds +4.5% -> +12.1%), where reduces placed early overlap their copy with the maps; "+
			"at 0.15 heldout9/reduce-heavy-busy (16 and 24 reduces on 96 containers, 0.17 and 0.25) fell out (+5.0% -> +5.3%), at 0.25 it did not. 0 never, as in rules v9-v17")
	b.Float(&p.reducesIdle, ParamReducesIdle, 0.3, speculators.In(0, 1, "a share"),
		"share of the slots idle at the job's first placement (as small-idle-share reads them; live, the ResourceManager's free capacity and the job's own running attempts) at or above which an exact job's reduce count makes it wait as reduces-after-maps-share's jobs do, under order "+OrderRemaining+" (simulator only), "+
			"but only while more than reduces-after-maps-running-per-reduce of its maps a reduce are running (rule v33): behind every job with an original to place, until its running maps fall to that many a reduce. "+
			"A reduce placed while its job's maps run holds its container in the copy phase until the last map ends (LATE §3.2), and order's level, Xu and Lau's least remaining work first (§IV-B, §V-B), lifts the job as if every slot it takes served its work; "+
			"on a busy cluster a few reduces a job are a large share of the free slots, each one a queued job's map not run "+
			"(heldout30/overload-squatting-reduces-slowstart-zero-fair, 4 reduces a job on 72 containers at load 0.91; 5 seeds: 61.1 -> 58.3 s, ras 56.3, hadoop 60.4; heldout6/alike-large-reduces-busy 174.6 -> 171.0, sca 164.1). "+
			"0.3 is rule v18's share, read against the idle slots; without the running-maps bound (the wait until the last map, as rule v18's) it brought heldout12/early-slowstart-busy in too and put 16 rows out. 0 never, as in rules v18-v32")
	b.Int(&p.reducesRunning, ParamReducesRun, 6, speculators.Span(0, 1<<20),
		"maps running a reduce of the job above which a job that reduces-after-maps-idle-share makes wait keeps waiting (rule v33); at or below it the reduces are placed and overlap their copy with the job's last maps. "+
			"Fitted (5 seeds, exact, the 146 rows the wait moves): 3 put two rows out (heldout28/fail-slow-limping-maps-node-fifo, tuning/slow-few-large), 4 brought four in and put heldout15/few-fat-nodes 0.004 s behind hadoop, 6 brought two in and none out; "+
			"on few-fat-nodes alone 5 and 8 put it behind hadoop too. 0 waits until the last map ends, as rule v18")
	b.Bool(&p.reducesIdlePools, ParamReducesPool, false,
		"apply reduces-after-maps-idle-share's wait (rule v33) on slot pools too (JobInfo.SlotPools, MRv1's map and reduce slots); false, rule v34: on slot pools a job's reduces never wait by it. "+
			"Rule v33's reason is that a reduce in its copy phase holds a container a queued job's map would use; on slot pools a reduce holds a reduce slot, which no map can take (Hadoop runs a fixed number of maps and of reduces at once on each node, two of each by default: LATE §2), so the wait only delays the copy's overlap with the job's last maps. "+
			"heldout33/slots-slow-heartbeats-reduce-hangs-sleep-sums-fifo (20 trackers of 4 map and 2 reduce slots, FIFO; 5 seeds, exact): 112.0 -> 110.8 s (gs 106.0, hadoop 119.0); on the 21 slot-pool rows no other row changed in or out. true is rule v33")
	b.String(&p.oneReduce, ParamOneReduce, "hadoop",
		"member for an exact job of one reduce and at least slots-one-reduce-maps maps on Hadoop 1 slot pools (JobInfo.SlotPools), from its first decision, over every switch but rule v32's (futile-map-copies) and rule v27's lost output: the busy, small, idle-slot, tail, spread and futile-reduce members (rule v37). "+
			"A lone reduce has no sibling to be judged against (Hadoop's and LATE's speculators compare a task with its job's others of its kind), and on slot pools its copy takes one of the few reduce slots other jobs' reduces queue for: "+
			"heldout37/overload-one-reduce-slots-reduce-heavy-fair (one reduce of about 100 s a job, 20 reduce slots offered 0.93 of their capacity, 5 seeds): 178.7 s -> 97.5, hadoop 97.5, mantri 97.4; rule v28's spread switch had run ras, whose copies of the lone reduces took the reduce slots. "+
			"Over the spread switch alone (the jobs placed before any record kept late, sca and ras) 102.5, still behind hadoop; on containers too, 14 rows out. Empty: off, as before rule v37")
	b.Int(&p.oneReduceMaps, ParamOneRedMaps, 4, speculators.In(0, speculators.MaxJobTasks, "a count"),
		"fewest maps of a job of one reduce on slot pools for slots-one-reduce-member (rule v37). Fitted, said plainly: with no floor heldout17/slots-tiny-adhoc-light (queries of 1 to 3 maps and one short reduce at load 0.09, where sca's clones at launch win) went out (13.8 s -> 26.8, sca 13.7); every floor from 4 to 8 moves the same rows. 0: every job of one reduce")
	b.Float(&p.oneReduceRatio, ParamOneRedRatio, 2, speculators.In(0, speculators.MaxReduceRatio, "a ratio"),
		"least ratio, the largest over the most recent 5 records that carry one, of a finished job's median reduce time after its last map ended over its map phase (first map start to last map end; rule v39's record, TailFit.ReduceRatio), at which slots-one-reduce-member still takes a job of one reduce on slot pools; a job placed before slots-one-reduce-ratio-records such records is taken as under rule v37. "+
			"It asks which phase is the long one: where the lone reduce is short beside its map phase, the maps' tail is what copies shorten and a short reduce's copy holds its slot briefly. "+
			"heldout40/fail-weibull-0.6-slots-crash-midway-fifo (Weibull maps of shape 0.6, one reduce of 20 s; ratios 0.2-1.8) 56.2 s -> 34.6 (gs 29.0, hadoop 56.2: no longer behind hadoop), heldout37/overload-one-reduce-slots-reduce-heavy-fair (one reduce of about 90 s after 10 s maps; ratios 0.9-37) unchanged at hadoop's 97.5. "+
			"Fitted, said plainly, on those two rows: any cut from 1.5 to 2.5 moves the same rows, at 3 the set-37 row went out (docs/auto-history.md, rule v39). 0: every such job, as rule v37")
	b.Int(&p.oneReduceRecords, ParamOneRedRecs, 2, speculators.Span(1, tailJobs),
		"fewest records of rule v39's ratio (slots-one-reduce-ratio) it reads; a job placed before them is taken by rule v37's switch. "+
			"Fitted, said plainly: with 1 the first jobs of heldout37/overload-one-reduce-slots-reduce-heavy-fair, after one short reduce, left hadoop and the row went out (98.2 s against mantri's 97.4, behind hadoop); 2, 3 and 5 keep it, 3 was the middle. "+
			"Refitted to 2 with sets 41-43 as tuning data (auto52, 5 seeds, 299 rows, beside rule v43): heldout43/fail-per-job-map-node-slowdowns-pareto-lengths-slots-fifo 43.34 -> 41.41 s (grass 40.66, hadoop 50.41) in, its first 7 jobs at seed 1 leaving hadoop a record sooner; heldout40/fail-weibull-0.6-slots-crash-midway-fifo 34.62 -> 33.76 (gs 29.0, still out); 4 rows moved within their standing by at most 0.2 s; heldout37's row kept (97.5); none out, behind hadoop 13 -> 13. Under --job-order none one row goes behind hadoop: heldout40/overload-day-climb-0.3-0.95-mixed-sizes-slots-fair 49.39 -> 49.75 s (hadoop 49.45; 3 restores it); not gated on the order")
	b.Bool(&p.mapFirst, ParamMapFirst, true,
		"an exact map-only job without an a-priori law placed before any map record holds a fitted spread runs map-only-busy-member at a busy fraction of map-only-busy-load or above, where the cluster applies the job order (JobInfo.JobOrder) (rule v35): "+
			"rule v7's busy switch waits for records whose map times spread at least map-only-busy-sigma, so on a busy cluster the first jobs, placed before any job has finished, ran map-only-member (grass), whose copies take the containers queued originals wait for (Xu & Lau §III), and at a load of 0.9 the queue they left stayed. "+
			"--job-order exact, 5 seeds, 251 rows: heldout32/overload-swim-bursts-eager-caps-tenant-fair 627.2 -> 612.2 s (grass 589.6) in, heldout35/overload-map-only-ljf-same-work-skew-fair 55.3 -> 49.6 (hadoop 51.0, sca 41.6) no longer behind hadoop, none out: 226 -> 227, behind hadoop 16 -> 15. "+
			"Choice: the cut and the member are rule v7's, none fitted; without the order rule v21 would run mantri, untried, so there rule v35 is rule v34. false: as rules v7-v34")
	b.Float(&p.killBehind, ParamKillBehind, 0.3, speculators.In(0, 1, "a share"),
		"while fewer than this share of an exact map-only job's copied maps were won by a copy (or fewer than 3 were copied), the job, whatever member it runs, kills a running copy of a map once the copy, read at its own pace (its start plus its time at its last report over its progress, both attempts at a progress of at least 0.1), would finish no sooner than the task's running original read at the original's (rule v36): "+
			"where a copy redoes its original's work (data skew: Mantri §2) on a node no faster, it keeps the original's pace from a later start and cannot win (LATE §4's time left, (1 - progress) / rate), and it holds a container a queued task would use (Xu & Lau §III); a copy on a faster node, or one that drew shorter work, is ahead and stays. "+
			"--job-order exact, 5 seeds, 269 rows: heldout37/midload-map-only-same-work-input-skew-fifo 94.1 -> 71.1 s (sca 69.5, hadoop 75.3) and heldout35/overload-map-only-ljf-same-work-skew-fair 49.6 -> 43.2 (sca 41.6) in; docs/auto-history.md, rule v36, gives the rows that moved. "+
			"Choice: the member may copy the task again; the share is fitted: killing whatever the job's copies won put the set-32 SWIM rows out (+5.2% each), at 0.5 one of them. 0: never, as rules v1-v35")
	b.Float(&p.lostPaced, ParamLostPaced, 0.75, speculators.In(0, 1, "a share"),
		"share of the lost map copies (killed after their original succeeded, read at a progress of at least 0.1) over the most recent map records that lost one (at least 3 such copies) that ran within 1.25x of their original's pace, at or above which an exact map-only job without an a-priori law runs map-only-lost-paced-member from its first decision, when those records' maps spread at least map-only-busy-sigma and their copied maps were won less than map-only-lost-paced-wins of the time (rule v38): "+
			"a copy that loses at its original's pace redid the same work on a node no faster (data skew: Mantri §2), so copying such a job buys nothing and holds a container a queued task would use (Xu & Lau §III); copies that draw other work lose at another pace. "+
			"Where copies on fast nodes of maps on slow nodes win (heldout38/midload-map-only-same-work-slow-nodes-fair), rule v8's futile switch never fires; see docs/auto-history.md, rule v38. 0: never, as rules v1-v37")
	b.Float(&p.lostPacedWins, ParamLostPacedW, 0.6, speculators.In(0, 1, "a share"),
		"share of the copied maps of the most recent map records won by a copy at or above which rule v38's switch (map-only-lost-paced) does not act: where copies win that often they pay whatever the lost ones did")
	b.String(&p.winsMember, ParamWinsMember, "gs",
		"member for an exact map-only job without an a-priori law, from its first decision, when copies of the most recent exact jobs' copied maps (at least 3) won at least map-only-copies-win of the time (rule v43), over map-only-member (grass) and over rule v7's and rule v35's busy member (sda); rule v12's spread member (a few slow nodes, tight map times) and rules v8 and v38 (copies that lose) stand over it. "+
			"Where nearly every copy wins, a map on a slow node or a long draw is cut by a copy on a fast node or a fresh draw (LATE §5.2's heterogeneity; Xu & Lau §III's memoryless case, where a copy is a fresh draw), the test GS applies, a copy's expected finish before its original's (GRASS §3.1), is borne out, and RAS's demand that the copy also save resources (GRASS §3.1, which GRASS applies in a job's later waves, §4) holds back copies that would have won; sda's detection and least-work-first order (Xu & Lau §VI, rule v7) copies later still. "+
			"--job-order exact, 5 seeds, 299 rows (sets 41-43 counted): heldout41/hetero-map-only-gamma-half-nodes-2x-fast-fair 27.28 -> 26.53 s (grass 25.92, hadoop 34.84) and heldout42/hetero-map-only-exponential-fifth-4x-light-0.3-fifo 24.54 -> 23.18 (gs 23.07, hadoop 63.76) in; heldout3/map-only-hetero-busy 102.4 -> 81.6 (sda 121.4), tuning/busy-map-only 57.0 -> 55.2 (sda 60.7), heldout5/exponential-map-only-mid 23.08 -> 21.93 (gs 22.52), heldout6/hetero-map-only-light 35.88 -> 35.64 (grass 36.45) faster and in; costs within their standing: heldout32/overload-swim-bursts-eager-caps-tenant-fair 611.9 -> 612.2 (grass 589.6), heldout11/very-slow-nodes-map-only 38.79 -> 38.90 (ras 41.94); heldout32/hetero-swim-speed-continuum-two-confs-fair 255.4 -> 255.0 (ras 243.4); none out, behind hadoop 13 -> 13: in 2 more. "+
			"Fitted: the member on the two set-41/42 rows (at a share of 0.85: gs 26.0 and 23.1 s; grass as the member, that is rule v7's busy switch off only, 26.7 and 24.0, +3.0% and +4.0%, in by less); see map-only-copies-win for the share. Empty: off, rule v41")
	b.Bool(&p.redAfter, ParamRedAfter, true,
		"auto's GRASS members (grass, gs, ras) give no copy to a running reduce that waits on its job's maps (in its copy phase, having copied at least the share of the maps done less 0.1, while a map is not done: grass.reduce-copies-after-maps), for an exact job without bounds on containers, unless the last map records' times spread at least map-only-busy-sigma or the last reduce records' copies won at least grass-reduce-copies-wins (rule v47); the job's reason names the rule when a reduce first waits so. "+
			"GRASS prices a copy by t_new against t_rem (GRASS §3.1, §5.1): a reduce's copy phase moves at the pace of the maps it fetches from, so t_rem, extrapolated from that pace, reads it as a straggler, and before the job's first reduce ends its t_new is earlier jobs' reduces' (grass's estimate.go), which may be another kind of job's; GS's test then holds at every free slot, for the copy too, which waits on the same maps (LATE §3.2: the copy phase is bound by the maps) and holds a container as long. "+
			"--job-order exact, 5 seeds, 305 rows (sets 41-44 counted): heldout22/interactive-beside-long-batch-fair 18.50 -> 17.19 s (hadoop 17.45, the best single policy): behind hadoop -> in; every seed gained (seed 1: the first batch job, 160 two-minute maps and 4 reduces of 60 s beside 4-second queries, ran grass, which launched about 50 copies of its 4 reduces from 171 s, 83 of 160 maps done, each priced by the queries' 4-second reduces; 62 copies ran when the second batch job came at 250 s). "+
			"Behind hadoop 14 -> 13, in +1, no row out, none newly behind; heldout24/grow-batch-overload-fifo 67.57 -> 67.02 (hadoop 66.07, still behind). "+
			"Slot pools left out as rule v34 reads them: a reduce copy there holds a reduce slot no map would take (heldout26/slots-old-gen-reduce-pools-fair went behind hadoop, 89.54 -> 90.40 s, hadoop 89.89). Jobs with a deadline or an error bound left out (heldout25/deadline-skew-slow-quarter-pack-fifo went behind hadoop, 0.8234 -> 0.8223). false: rule v43")
	b.Float(&p.redAfterWins, ParamRedAfterW, 0.6, speculators.In(0, 1, "a share"),
		"share of the copied reduces of the most recent reduce records (at least 3 copied) won by a copy at or above which rule v47 (grass-reduce-copies-after-maps) does not act: where earlier jobs' reduce copies won, a copy placed while the maps run gains later (on a faster node: LATE §5.2), whatever its copy phase reads. "+
			"Fitted, said plainly, over every row (5 seeds): without it heldout32/hetero-swim-speed-continuum-two-confs-fair (records' reduce copies won 0.85-0.90) went behind hadoop, 255.0 -> 257.5 s (hadoop 256.7, ras 243.4; a row whose seeds spread 65 s), and heldout28/fail-slow-limping-maps-node-fifo out, 60.74 -> 62.95 (grass 58.93); at 0.5 heldout22's first-wave jobs were left out too (17.44 s, a hair ahead of hadoop) and the limping row 62.43; at 0.6 both 255.38 and 60.30; at 0.8 the two rows as without it. 1: rule v47 on wherever map records spread below the cut")
	b.Float(&p.winsShare, ParamWinsShare, 0.9, speculators.In(0, 1, "a share"),
		"share of the copied maps of the most recent exact map records (at least 3 copied) won by a copy at or above which an exact map-only job without an a-priori law runs map-only-copies-win-member (rule v43); 0: never, rule v41. "+
			"Seed 1 reads 0.86-0.97 on heldout41/hetero-map-only-gamma-half-nodes-2x-fast-fair, 0.93-1.00 on heldout42/hetero-map-only-exponential-fifth-4x-light-0.3-fifo. "+
			"Fitted between 0.8 and 0.9 over every row (5 seeds): at 0.8 heldout32/hetero-swim-speed-continuum-two-confs-fair went out and behind hadoop (255.4 -> 259.8 s, hadoop 256.7, ras 243.4); at 0.85 every row stayed in and the targets gained more (25.99 and 23.07 s; heldout3/map-only-hetero-busy 68.7) but heldout32/overload-swim-bursts-eager-caps-tenant-fair came near the edge (611.9 -> 616.2, +4.5% of grass's 589.6); 0.9, the margin from 0.8's loss, moves the swim rows by less than 0.5 s")
	b.String(&p.lostPacedMember, ParamLostPacedM, "hadoop",
		"member rule v38's switch (map-only-lost-paced) runs: hadoop, rule v8's futile-member, copies least of the members")
	b.String(&p.redHeavy, ParamRedHeavy, "sca",
		"member for a job with an error bound (and no deadline) whose reduces are at least bounded-reduce-heavy-share of its maps, in place of bounded-member, unless rule v24's futile-bounded-member applies (rule v40): "+
			"its time to the bound counts only its maps, which are few beside its reduces, and SCA clones a few tasks at launch while idle containers exceed their demand (Xu & Lau §IV) where a small job's straggler is hard to detect in time (§II) and GRASS's estimates come too late for a single wave of short maps. "+
			"--job-order exact, 5 seeds: heldout35/error-few-maps-heavy-gamma-reduces-fair (4-8 maps and 8 long reduces a job) 22.34 -> 15.11 s to the bound (sca 14.21, hadoop 15.80): no longer behind hadoop, still out; no other row of 281 moved. "+
			"sca for every job with a bound lost 23 rows; for bounds that leave out at most one map, 11. Fitted on one row; empty: off, the rule before v40")
	b.Float(&p.redHeavyShare, ParamRedHeavyS, 1, speculators.In(0, 1e6, "reduces per map"),
		"reduces per map at or above which a job with an error bound runs bounded-reduce-heavy-member (rule v40); 1: at least as many reduces as maps. "+
			"Maps alone (at most 10) moved grass-error's small jobs too (81.2 -> 123.9 s, out)")
	b.String(&p.paretoBusy, ParamParetoBusy, "ese",
		"member for an exact map-only job with an a-priori Pareto law placed while the cluster's busy fraction is at least pareto-busy-load and Xu & Lau's cutoff omega_U for its tail index (§III, eq. (4)): detection above the cutoff load (ESE, §VI)")
	b.Float(&p.paretoLoad, ParamParetoLoad, 0.7, speculators.In(0, 1, "a load"),
		"busy fraction (as for clone-load) at or above which, and at or above omega_U of the job's tail index, an exact map-only Pareto job runs pareto-busy-member instead of pareto-member; 1 never. 0.7 from the tuning scenario busy-pareto (5 seeds: ras 49.8 s, ese 27.7, auto 27.3; at 0.8, 37.3 s over 3 seeds); the bundled xulau rows never reach it")
	b.Bool(&p.paretoOrder, ParamParetoOrder, true,
		"order exact map-only jobs with an a-priori Pareto law on free slots as order says, as exact jobs (rule v11; simulator only). "+
			"5 seeds, 300 jobs: xulau/ese auto 49.5 s unordered, 33.9 ordered, ese 43.7; xulau/ese-overload 71.0, 48.8, ese 51.5 (ras for 299 of 300 jobs either way: its copies keep the originals' busy fraction near 0.5, below pareto-busy-load); false is rule v10")
	b.Bool(&p.alikeEvery, ParamAlikeEvery, true,
		"the alike switch (alike-busy-member) needs every one of the most recent records below the slow-node cuts (each map record's slow share below spread-share, each reduce record's below reduce-spread-share), not only their means, and a job alike by the means but not by the slowest record runs, on containers, spread-member (rule v12): "+
			"a fault that strikes some jobs and not others leaves the means low, and the alike member (sca above the cutoff load) copies nothing (5 seeds: heldout11/reduce-phase-slowdowns 52.0 -> 48.9 s, gs 48.2; heldout10/reduce-stragglers-only 50.5 -> 46.6, grass 44.6; heldout7/slowdown-faults-stream 73.7 -> 70.7); false: the means, as in rules v7-v11")
	b.Int(&p.alikeWide, ParamAlikeWide, 16, speculators.Span(0, 32),
		"how many of the most recent map records the alike switch (alike-busy-member) reads for a wide one: a record whose map times spread at least tail-sigma among them keeps the job off the alike member, however tight the last 5 (rule v19), and the job runs as one alike by the means but not by the slowest record (spread-member on containers, busy-member on slot pools): "+
			"a tenant of bursts of jobs with a heavy map tail among a steady tenant of tight jobs, whose last 5 records at the next burst are all the steady tenant's, and the alike member (sca above the cutoff load) copies nothing for the burst's tails "+
			"(5 seeds: heldout18/prod-adhoc-tenants 61.3 -> 54.7 s, gs 51.4, hadoop 58.6; 56.4 at 8, 54.7 from 12 to 32; fitted on that row). The cut is tail-sigma, not alike-busy-sigma: at 0.25 a stray wide fit among alike jobs' records took heldout6/alike-large-reduces-busy from 174.9 to 185.9 s (181.1 at 6 records); 0 never, as in rules v7-v18")
	b.String(&p.busySlots, ParamBusySlots, "hadoop",
		"busy member (busy-member's place) for an exact job with reduces on Hadoop 1 slot pools (rule v19): "+
			"heldout18/slots-reboot-loop-fifo (one node of 20 down 80 s every 190 s, FIFO, busy) 102.5 -> 77.8 s, farms 77.5, hadoop 107.2 (5 seeds; sda alone 607.7, auto's sda jobs were its loss); fitted on that row; cost heldout6/slots-three-speeds-reduces 155.2 -> 157.4 (ras 144.8); empty: busy-member, as in rules v4-v18")
	b.String(&p.alikeIdle, ParamAlikeIdle, "ras",
		"member an exact job with reduces on containers starts on, in place of containers-member, when the most recent records are alike as the alike switch reads them (at least 3 map records spread below alike-idle-sigma, every map and reduce record's slow share below spread-share and reduce-spread-share, reduce times spread below reduce-tail-sigma, none of the last alike-sigma-records map records spread at least tail-sigma; rule v20): "+
			"tight task times on alike nodes leave copies little to gain, and RAS copies a task only when the copy saves resources, where GRASS's GS half copies any task a fresh copy would beat. The busy and idle-slot cuts still apply at its first placement. "+
			"heldout19/iterative-chains-fair (four chains of identical jobs of 60 lognormal sigma-0.25 maps on alike nodes, never busy at placement; 5 seeds): 45.9 s with grass (942 copies a run), 43.8 with ras, ras alone 43.1, hadoop 43.9; hadoop as this member (at a cut of 0.3) 44.4, and four rows of faults that come and go, whose records read alike between faults, fell out. Fitted on one row: seeds 6-10 45.8 -> 44.2, hadoop 43.8, still behind it; empty: containers-member, as in rules v10-v19")
	b.Float(&p.alikeIdleSigma, ParamAlikeIdleS, 0.26, speculators.In(0, 100, "a log spread"),
		"spread of the most recent map records (as for alike-busy-sigma) below which alike-idle-member applies (rule v20). "+
			"Fitted on one row: iterative-chains-fair's records read 0.20-0.27 (5 seeds: 44.1 s at 0.25, 43.8 at 0.26, 43.5 at 0.27, 43.4 at 0.3); from 0.27 heldout15/few-fat-nodes (lognormal sigma-0.3 maps, records 0.26-0.32) fell behind hadoop, 141.0 -> 143.2 s (hadoop 142.3), all of it one seed whose jobs diverged after two ran ras (seeds 6-20: 144.0 under v19, 143.4 at 0.3)")
	b.String(&p.singleTask, ParamSingleTask, "hadoop",
		"small busy member (small-busy-member's place) for an exact job of at most one map and at most one reduce placed at small-busy-load or above (rule v20): a task with no sibling gives a detector nothing to compare it with, and on a busy cluster a copy's slot is another job's; below clone-load the small member still clones it (Dolly's case: heldout17/slots-tiny-adhoc-light, jobs of 1-3 maps at load 0.09, 13.8 s with sca, 18.3 with hadoop there too). "+
			"heldout19/one-by-one-high-rate (1,300 jobs of one map and one reduce at load 0.74; 5 seeds): 22.9 s with ras (366 copies a run, none won), 22.4 with hadoop, hadoop alone 22.3 (the first 16 jobs, placed on the idle cluster, are still cloned). Fitted on one row; empty: small-busy-member, as in rules v12-v19")
	b.String(&p.futileBound, ParamFutileBound, "none",
		"member for a job with a deadline or an error bound when copies of the most recent exact jobs' maps won less than futile-copy-wins of the time (at least futileMinCopies of them), over bounded-member, also when the bounds come later live (rule v24: a copy that redoes the same work never wins, and GRASS copies a task only when the copy saves time, so a bounded job keeps its slots for its originals; empty: rules v3-v23, bounded-member always)")
	b.String(&p.futileRedMember, ParamFutileRedM, "sca",
		"member for an exact job with reduces, where the cluster applies the job order (JobInfo.JobOrder), when rule v14's evidence holds (copies of the most recent jobs' reduces won less than futile-reduce-wins of at least futileMinCopies, and their maps' too or fewer were copied), "+
			"that evidence read over the most recent records that copied a task, in place of futile-member (rule v25): a copy there redoes its task's work, and SCA (Xu & Lau §IV) copies nothing above the cutoff load and clones only below it; "+
			"a job that copies nothing writes a record of no copies, and over the last records alone those pushed the losing copies out and the next jobs went back to copying members (rule v23's trial of none: 22 jobs back to grass). "+
			"--job-order exact, 5 seeds: heldout22/zipf-partitions-reduce-heavy (Zipf-sized reduce partitions; no copy won under v24 or v25) 130.5 -> 126.0 s (sca 120.3, hadoop 129.4), heldout3/hang-stream 62.95 -> 61.62; 164 -> 165 of 185 rows, none out; none 128.8 and late 126.7 as the member (no row in). "+
			"Without the order it cost heldout12/multi-wave-reduces (148.2 -> 149.4 s, hadoop 149.3), so there rule v25 is rule v24; empty: futile-member over the last records, as in rules v14-v24")
	b.String(&p.wavesMember, ParamWavesMember, "hadoop",
		"member for a job with a deadline whose tasks are at least deadline-waves times the slots it can hold (JobInfo.Slots), in place of bounded-member, unless rule v24's futile-bounded-member applies (rule v26): "+
			"GRASS's Guideline 1 (§3.2) has speculation in a job's early waves pay only for task times of an infinite-variance tail, and a job of several waves spends most of its life in early waves, where every copy takes a slot from one of its own originals that the deadline would otherwise count; hadoop copies least. "+
			"--job-order exact, 5 seeds: heldout21/deadline-many-waves-speeds (every job deadline-bound, 8-240 maps on 64 containers, a lognormal tail of sigma 0.45) accuracy 0.9411 -> 0.9696 (hadoop 0.9632) in: 170 -> 171 of 191 rows, none out; "+
			"hadoop as bounded-member for every job (rule v24's trial) lost 18 rows net; for error bounds too the switch cost grass-error 81.2 -> 86.1 s and heldout5/error-bound-busy 96.0 -> 106.3 (ras 103.9). Fitted on one row; empty: off, as in rules v3-v25")
	b.String(&p.besideMember, ParamBeside, "hadoop-legacy",
		"member for an exact job with reduces placed while the deadline of a job with a deadline that auto was given lies ahead (that job's deadline record, TailFit.Deadline, handed out when it is built or given its deadline later, live; kept in memory, not in the store's file), from its first decision, over the tail, spread, busy, small and idle-slot switches (rule v41); rule v27's lost-output member still takes over on a lost map output. "+
			"The measure of a row with deadline jobs is their accuracy, the share of their input tasks done by the deadline (Trimming Stragglers in Approximation Analytics, §5.2), and a copy of an exact job's task holds a container one of their originals would use (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III); Hadoop 0.20's rule (Improving MapReduce Performance in Heterogeneous Environments, §2.1: a task at least 0.2 behind its kind's mean progress after a minute) copies least, and late, while a deadline of about a minute runs out. "+
			"--job-order exact, 5 seeds, 281 rows: heldout32/deadline-swim-reduces-kept-slowstart-split-fifo accuracy 0.9305 -> 0.9871 (hadoop 0.9856, sca 0.9942) in; heldout25/deadline-skew-slow-quarter-pack-fifo 0.7890 -> 0.8234 (hadoop 0.8231, hadoop-legacy 0.8247) in; heldout23/deadline-quarter-nodes-hang 0.9634 -> 0.9855, still behind hadoop's 0.9862; behind hadoop 15 -> 13, none out, 16 other deadline rows moved within their standing. "+
			"hadoop as the member: 0.9874, 0.8172 (behind), 0.9852, behind 15 -> 14; late or tws 0.9795 (behind), 0.8306, 0.9857/0.9852; none 0.9885, 0.8191, 0.9842; mantri 0.9863, 0.8010, 0.9841 (the three targets). The member is fitted on those three rows. "+
			"Not gated on the job order: under --job-order none (281 rows) 3 rows in, behind hadoop 60 -> 58, and heldout20/deadline-overload-fifo (FIFO, offered 1.1) from out to behind hadoop, 0.7504 -> 0.6332 (hadoop 0.7313): without the order an exact job ahead in the queue holds its head until its tail ends; under --job-order yarn behind hadoop 17 -> 18 (heldout35/deadline-empirical-tail-slots-crash-or-hang-fifo 0.9823 -> 0.9798, hadoop 0.9814), the three targets closer and still behind (0.9854, 0.8125, 0.9840). Empty: off, as in rules v3-v40")
	b.String(&p.errBesideMember, ParamErrBeside, "hadoop-legacy",
		"member for an exact job with reduces placed while a job with an error bound (and no deadline) that auto was given is still short of its bound (rule v44): such a job hands out, when it is built and then every 5 s of its events while the maps it has done are fewer than (1 - bound) of its maps, "+
			"a bound record (speculators.MarkBoundAhead, a deadline record 10 s after that moment; kept in memory only, a window of its own, skipped by rule v41), and an exact job whose start lies before the latest of them runs this member from its first decision, over the tail, spread, busy, small and idle-slot switches, as rule v41's deadline-beside-member (which wins when a deadline lies ahead too); rule v27's lost-output member still takes over on a lost map output. "+
			"The time to an error bound counts the bounded job's maps only (Trimming Stragglers in Approximation Analytics, §5.2), and an exact job's copy holds a container one of their originals would use (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III); Hadoop 0.20's rule (Improving MapReduce Performance in Heterogeneous Environments, §2.1) copies least and latest. "+
			"--job-order exact, 5 seeds, 305 rows (with rule v45): heldout32/error-swim-ljf-hang-or-slow-choice-fifo 150.7 -> 114.8 s to the bound (hadoop 119.4, the best single) from behind hadoop to in; heldout35/error-few-maps-heavy-gamma-reduces-fair 15.11 -> 14.28 (sca 14.21) in; behind hadoop 14 -> 13, none out; "+
			"the largest cost heldout39/error-lognormal-1.2-busy-reduces-kept-fifo 14.98 -> 15.86 (mantri 15.79, still in). Traced at seed 1 on set 32's row: exact-job2505 (30 maps, 4 reduces, ras by rule v29) launched 86 copies and wasted 46,932 container-s (hadoop alone: 3 copies, 282) while the bounded jobs placed after it waited (sample-job2862 569 s to its bound, hadoop 79). "+
			"The member is rule v41's, not fitted anew: hadoop 118.1 / 15.28 / 14.19 (set 32 / 39 / 44), late or tws 113.5 / 15.87 / 14.25, none 118.0 / 15.97 / 14.25, mantri 112.8 / 15.05 / 14.54 (set 44 out); records reaching 4, 30 or 60 s gave set 32 117.3, 113.9, 113.7. "+
			"Not replayed under --job-order none or yarn. Empty: off, as in rules v3-v43")
	b.String(&p.memoryless, ParamMemoryless, "mantri",
		"member for a job with an error bound (and no deadline), also given later live, placed after map records whose spread (rule v5's, q50 - q10 of log times over z(0.9)) is at least bounded-memoryless-sigma and whose upper-half spread (rule v17's) is at most bounded-memoryless-upper of it, in place of bounded-member, unless rule v24's or rule v40's member applies (rule v45). "+
			"An exponential law's log times spread 1.47 below the median and 0.94 above it (ratio 0.64; a lognormal's halves are alike, 1): a memoryless map that has run long is no nearer its end than a fresh copy (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III), so the copy's gain does not shrink with the original's age and Mantri's test, a copy when the task's time left exceeds a new attempt's expected time (Reining in the Outliers in Map-Reduce Clusters using Mantri, §5.1), copies as soon as that holds, where GRASS waits on its estimates. "+
			"--job-order exact, 5 seeds: heldout44/error-exponential-maps-slots-fifo-0.61 14.60 -> 14.25 s to the bound (mantri 13.65, hadoop 19.88) in, with rule v44; moved 7 other rows by rule v44's run, none out (heldout13/bounds-fifths-slots-gamma 26.36 -> 27.64, gs 28.21, the largest cost). "+
			"Fitted on the one row: mantri for every bounded job there 13.53 s, gs or ras as the member 14.60 and 14.79; bounded-memoryless-sigma 1.2 gave 14.32 (within 5% by 0.1%), bounded-memoryless-upper 0.8 14.06. Empty: off, as in rules v3-v43")
	b.Float(&p.memSigma, ParamMemSigma, 1.0, speculators.In(0, 20, "spread"),
		"map-record spread at or above which bounded-memoryless-member applies (rule v45): below an exponential law's 1.47 with room for records of few maps; the error-bound rows' records read 0.09-0.82 at seed 1 but for heldout39's lognormal 1.2 (1.18, upper half 0.86 of it) and heldout44's exponential maps (1.35, 0.56); 0 never")
	b.Float(&p.memUpper, ParamMemUpper, 0.7, speculators.In(0, 20, "ratio"),
		"upper-half over lower-half spread of the map records at or below which bounded-memoryless-member applies (rule v45): between an exponential law's 0.64 and a lognormal's 1")
	b.String(&p.narrow, ParamNarrow, "none",
		"member for a job with an error bound (and no deadline), also given later live, placed after map records whose upper-half spread (rule v17's, (q90 - q50) of log times over z(0.9), an original still running or beaten by a copy read at its pace) is at most bounded-narrow-upper and at most bounded-narrow-ratio of their spread (rule v5's, q50 - q10 over z(0.9)), in place of bounded-member, unless rule v24's, v40's or v45's member applies (rule v48); the reason ends \"(bounded-narrow-member)\". "+
			"A flat, bounded map law (U(4, 16) s reads 0.51 below the median and 0.31 above it; a lognormal's halves are alike) has no map far past the median: a copy of a late map saves at most the few seconds between its draw and the law's ceiling while it holds a container a queued original would use (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III: with a light tail a copy's gain is bounded and cloning pays only on idle slots), and an error-bound job drops its last maps outright (Trimming Stragglers in Approximation Analytics, §5.2), so GRASS's copies, priced from t_rem estimates that uneven progress reports mislead, only add work. "+
			"--job-order exact, 5 seeds, 311 rows: heldout45/error-uniform-maps-noisy-progress-containers-fifo-0.72 20.71 -> 18.79 s to the bound (sca 19.69, the best single; hadoop 20.02; none 19.71, grass 24.55): behind hadoop -> in; behind hadoop 12 -> 11, in +1, none out; 9 other error-bound rows moved within their standing (the largest costs heldout34/error-slots-sjf-map-node-hangs-timeout-fair 23.94 -> 24.60, gs 25.15, and heldout32/error-swim-ljf-hang-or-slow-choice-fifo 114.8 -> 116.8, hadoop 119.4). "+
			"Traced: under v47 auto ran grass on every bounded job there and launched 255-314 copies a seed on them (hadoop 30), wasting 3,648-4,256 container-s (hadoop 1,298-1,616); under v48 18-24 of 30 bounded jobs a seed run none (grass until the records read flat), 23-135 copies. "+
			"Fitted on the one row: the upper-half cut alone (0.35) took heldout21/slots-rare-far-outliers behind hadoop (15.59 -> 54.93) and heldout17/error-quarter-fifo-outliers out (31.47 -> 49.95), whose records are narrow on both sides (spread 0.08-0.19) around rare far outliers; the ratio 0.8 keeps them. On the row as the member: none or hadoop-legacy 18.79 s, sca 18.76, hadoop 18.97 (none kept: the rule's reason is that copies do not pay); bounded-narrow-upper 0.3 / 0.4 gave 19.34 / 18.68, bounded-narrow-ratio 0.7 / 0.9 18.95 / 18.77 (0.35 and 0.8 kept, not searched over all rows). Not replayed under --job-order none or yarn. Empty: off, as in rules v3-v47")
	b.Float(&p.narrowUpper, ParamNarrowUpper, 0.35, speculators.In(0, 20, "spread"),
		"map-record upper-half spread at or below which bounded-narrow-member applies (rule v48): U(4, 16) s maps read 0.26-0.39 at seed 1, the other error-bound rows' records 0.38-1.38 (medians) but for rows of rare far outliers or hangs (heldout17, 20, 21: 0.12-0.25), which bounded-narrow-ratio leaves out; 0 never")
	b.Float(&p.narrowRatio, ParamNarrowRatio, 0.8, speculators.In(0, 20, "ratio"),
		"upper-half over lower-half spread of the map records at or below which bounded-narrow-member applies (rule v48): a flat law's upper half is about half its lower (U(4, 16) s: 0.6 in law, 0.76 read at seed 1 through noisy progress), a lognormal's 1, records narrow on both sides around rare outliers 1.1-1.4")
	b.String(&p.heavyUpperMember, ParamHeavyUpperM, "mantri", "member for a job with an error bound (and no deadline), also given later live, placed after map records whose upper-half spread (rule v17's) is at least bounded-heavy-upper and at least bounded-heavy-ratio of their spread (rule v5's lower-half), itself at least bounded-heavy-lower, in place of bounded-member, unless rule v24's, v40's or v45's member or bounded-narrow-member applies (rule v48, second half); the reason ends \"(bounded-heavy-upper-member)\". "+
		"An upper half heavier than the lower (a lognormal's halves are alike) says a map that has run past the median has far to go (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III: a heavier tail, a larger gain from a copy), and Mantri's test, a new attempt once the time left exceeds a new attempt's (Reining in the Outliers in Map-Reduce Clusters using Mantri, §5.1), acts on it at the first estimates, where GRASS waits to switch from GS to RAS. "+
		"--job-order exact, 5 seeds, 311 rows (with the first half): heldout18/idle-error-lognormal-heavy (error-bound map-only jobs of lognormal maps, median 8 s, sigma 1.0, on a near-idle cluster) 16.27 -> 15.90 s to the bound (mantri 15.47, the best single; hadoop 26.87): out (+5.2%) -> in (+2.8%); heldout29/error-tiny-jobs-one-drop-fair 13.73 -> 13.76 (gs 13.35, in), heldout39/error-lognormal-1.2-busy-reduces-kept-fifo 15.86 -> 15.84 (mantri 15.79). Traced: under v47 grass on all 40 bounded jobs, 771-938 copies a seed, per seed 16.35, 16.04, 16.43, 16.33, 16.22 s; with the switch mantri on 30 of 40 (grass until the records read heavy), 824-1,764 copies, 15.50, 16.04, 15.33, 16.31, 16.31 (mantri alone 15.30, 15.48, 14.96, 15.06, 16.55). "+
		"Fitted on the one row: without the ratio (upper at least 1.0 alone) heldout29 went out, 13.73 -> 14.64 (its records read 0.78 above the median, 0.74 below, some seeds' jobs over 1.0); ratio 1.1 / 1.2 / 1.4 / 1.5 gave heldout18 15.89 / 15.94 / 15.97 / 15.94 and heldout29 14.64 / 14.70 / 13.76 / 13.76; upper 0.9 / 0.8 (no ratio) gave heldout18 15.90 / 15.66 but heldout39 16.17 / 16.45. The member is rule v45's (mantri, the best single there), not fitted. Not replayed under --job-order none or yarn. Empty: off, as in rules v3-v47")
	b.Float(&p.heavyUpper, ParamHeavyUpper, 1.0, speculators.In(0, 20, "spread"), "map-record upper-half spread at or above which bounded-heavy-upper-member applies (rule v48): heldout18's lognormal sigma 1.0 maps read 1.10-1.24 at seed 1, heldout39's 1.01, heldout19's bimodal cache row 1.38 (left out by bounded-heavy-lower), the other error-bound rows 0.12-0.89 (medians); 0 never")
	b.Float(&p.heavyLower, ParamHeavyLower, 0.5, speculators.In(0, 20, "spread"), "map-record spread (rule v5's lower half) at or above which bounded-heavy-upper-member applies (rule v48): leaves out records narrow below the median around a far upper mode (heldout19/error-half-cache-bimodal: 0.24 below, 1.38 above; grass there 21.14 s, auto 15.95, mantri 19.69)")
	b.Float(&p.heavyRatio, ParamHeavyRatio, 1.3, speculators.In(0, 20, "ratio"), "upper-half over lower-half spread at or above which bounded-heavy-upper-member applies (rule v48): a lognormal's halves are alike (1), heldout18's records read 1.49 (median of decisions at seed 1), heldout29's 1.09")
	b.String(&p.lostMember, ParamLostMember, "hadoop",
		"member for an exact job from the first map output it loses (a succeeded map attempt reported failed or killed: the reducers' fetch failures or the node's expiry), and from then on the failure layer re-runs the outputs on a failed node at once, not after failure-rerun-after-ms (rule v27): "+
			"a lost output says the node's outputs are gone (a crash, not a hang that comes back with them), so waiting only delays the re-runs the reducers need, and the GRASS family's copies of stalled reduces take the slots those re-runs want. "+
			"--job-order exact, 5 seeds: heldout26/shuffle-crashes-eager-fetch-failures-fifo (crashes at the end of a job's maps, fetch-failure thresholds lowered) 126.8 -> 93.3 s (tws 93.9, hadoop 114.0) in: 175 -> 176 of 197 rows, none out. "+
			"The member alone gave 102.8 s (from a node failure too, 101.8), the prompt re-runs alone 116.4; late or tws as the member 101.7, none 101.5, sca 98.5. "+
			"Only where the cluster applies the job order (JobInfo.JobOrder): under --job-order none it put heldout21/fast-timeouts-long-hangs (107.4 -> 125.5 s, hadoop 123.3) and heldout20/rolling-restart (244.8 -> 279.5, hadoop 245.2) behind hadoop and brought no row in, so there rule v27 is rule v26; empty: off, as in rules v14-v26")
	b.Bool(&p.lostRerunAll, ParamLostAll, true,
		"the failure layer of every exact job with reduces re-runs a failed node's completed maps at once (rule v27's prompt layer), not after failure-rerun-after-ms, once a job auto ran has lost a map output that a reducer had reported it could not fetch: such a job hands out a lost-output record (speculators.MarkOutputLost, kept in memory only), a job built after one starts with the prompt layer, and a running job takes it at its next node failure; the reason ends \"(lost-output-rerun-all)\"; false is rule v49, where only the job that lost an output re-ran at once (rule v51). "+
			"Rules v14-v15 wait 40 s for a node that hangs and comes back holding its outputs; a reducer's fetch failure followed by the output's loss says this cluster's failures take outputs with them (a crash, or a restart without work-preserving recovery: FARMS, Efficient MapReduce Speculation for Failure Recovery in Short Jobs, §2.3), and FARMS §3.2 re-runs a failed node's completed maps at once. A node that restarts within the wait comes back empty, and the lost outputs were found only by the reducers' fetch failures, minutes later. "+
			"--job-order exact, 5 seeds, 317 rows: heldout20/rolling-restart (every node restarted in turn, down 40 s: the wait never ran out) 112.4 -> 88.14 s (farms 88.31, hadoop 245.2) out -> in; heldout33/fail-late-reduce-crash-noisy-progress-short-shuffle-fifo 71.46 -> 63.88 (farms 67.38) out -> in; heldout26/shuffle-crashes-eager-fetch-failures-fifo 94.75 -> 92.38 (tws 93.89); no other row moved, behind hadoop 11 -> 11. "+
			"At seed 1 on rolling-restart 12 jobs ran over 200 s under v49 (323.6 s on average, farms 81.8 on the same jobs; the layer's re-runs of the node's maps waited, and the reducers' fetch failures found the outputs gone after the node was back), 181.9 s under v51; three jobs placed before the first record (job-04, 06, 07, submitted before 100 s) still stall (243, 885, 289 s). "+
			"Fitted, said plainly: a record at any lost output (the layer's own 40 s re-runs of a hung node's maps count as one) put heldout21/fast-timeouts-long-hangs out (87.46 -> 105.2 s, tws 96.88) and moved heldout14/reduce-hangs-busy 98.88 -> 107.9, so the record needs a reducer's fetch-failure report against the map first; the running jobs' switch at a node failure was kept over a switch at build only (rolling-restart 88.1 against 91.7 s). "+
			"Not replayed under --job-order none or yarn (rule v27's prompt layer, which this switch hands out, is built only where the cluster applies the job order)")
	b.String(&p.boundLostMember, ParamBoundLostM, "none",
		"member for a job with an error bound (and no deadline), from its first decision, when the most recent bound-copy records (at least bounded-copies-lost-copied copied maps over the last 5) say copies won less than bounded-copies-lost-wins of the copied maps (rule v52); it stands over bounded-member and rules v24, v40, v45 and v48. "+
			"A job with an error bound that auto ran hands out, when its maps done first reach (1 - bound) of its maps, a bound-copy record (speculators.MarkBoundCopies, kept in memory only, a window of its own, skipped by the readers of map, reduce and deadline records): of its maps done by then, how many had had a copy and how many a copy won. "+
			"Exact jobs' map records come when all their maps are done, and where a map's work is its input's (Mantri §2: data skew, where a duplicate repeats the work and does not help) an exact job waits on its longest map whatever is copied, so such records come late or never; the bounded jobs themselves report at their bound, seconds after they start. "+
			"A copy that repeats its original's work on alike nodes never finishes first (GRASS §3.1 copies only when t_new < t_rem; with the same work, t_new is never less), and an error-bound job's remedy for its last maps is the bound itself (GRASS §2: drop them), so its copies only hold containers the queued jobs' originals wait for under FIFO (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III). "+
			"--job-order exact, 5 seeds: heldout49/error-same-work-pareto-1.6-input-skew-bounds-containers-fifo (error-bound jobs of Pareto-1.6 maps whose copies repeat the work, FIFO containers) 30.20 -> 21.88 s to the bound (dolly and none 21.99, the best single; hadoop 22.45): behind hadoop -> in; 341 rows (sets 1-50): behind hadoop 12 -> 11, in +1, none out; heldout20/error-tight-job-hangs 42.90 -> 43.24 (sca 73.08) and heldout46/error-lognormal-job-sizes-exponential-reduces-slots-fair 15.16 -> 15.10 (ese 15.41) moved within their standing. "+
			"Traced at seed 1 under v51: grass on all 35 bounded jobs (no exact map record read: the exact jobs' maps end hundreds of seconds later), hadoop-legacy on the 10 exact ones (rule v44), 398 copies, none won, 10,537 container-s wasted (hadoop 62 copies, 4,148). "+
			"Fitted on one row (the member: none, the best single there with dolly, srquant and laser; hadoop as the member 22.01, dolly 21.88). Not replayed under --job-order none or yarn; jobs given a bound later, live, keep bounded-member. Empty: off, as in rule v51")
	b.String(&p.boundSpreadMember, ParamBoundSpreadM, "none",
		"member for a job with an error bound (and no deadline), also given later live, placed when the prior holds no map record and the most recent bound-spread records (up to 5, weighted by their maps) read an upper-half spread (rule v17's, (q90 - q50) of log times over z(0.9)) at most bounded-narrow-upper, in place of bounded-member, unless rule v24's, v40's, v45's or v48's member applies; rule v52's member stands over it (rule v56); the reason ends \"(bounded-spread-narrow-member)\". "+
			"A job with an error bound that auto ran hands out, when its maps done first reach (1 - bound) of its maps, a bound-spread record (speculators.MarkBoundSpread, kept in memory only, skipped by the readers of map, reduce and deadline records): FitTail's reading of its original maps then (a running map at its time so far, a map a copy beat or still running at its time over its progress). "+
			"Map records come only from exact and map-only jobs when all their maps are done: an error-bound job drops its last maps at the bound and hands out none, so on a cluster of error-bound jobs alone rules v45 and v48 read nothing and every job ran bounded-member (grass) whatever the law. "+
			"A narrow law has no map far past the median: a copy saves at most the seconds to the law's ceiling while it holds a container a queued original wants (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III), and the error bound drops the last maps anyway (Trimming Stragglers in Approximation Analytics, §5.2); GRASS's copies win (§3.1's t_new < t_rem holds by a second or two) but each wins little. "+
			"--job-order exact, 5 seeds, 371 rows (sets 1-55): heldout54/error-triangular-bounds-sum-two-uniform-0-0.2-poisson-maps-1s-heartbeats-containers-fair (40 error-bound jobs of Poisson maps, mean 12 s, bounds the sum of two U(0, 0.1), two reduces, 1 s heartbeats, fair containers, load 0.6-0.7) 30.12 -> 23.32 s to the bound (sca 23.37, the best single; hadoop 26.73; none 26.52, grass 29.49): behind hadoop -> in; behind hadoop 12 -> 11, in +1, none out, 12 rows moved, the largest cost heldout34/error-slots-sjf-map-node-hangs-timeout-fair 24.60 -> 25.45 (gs 25.15, in). "+
			"Traced at seed 1 under v55: grass on all 40 jobs, its reason \"the job has a deadline or an error bound\" alone (no map record ever; the bound-copy records read copies that won 0.23-0.88, so rule v52 never acts), 429 copies and 7,117 container-s wasted (hadoop 39 and 1,665); under v56 none on 38 (the first two jobs come before any record), 24 copies, 1,498 wasted; at seeds 1-3 the records read spread 0.23-0.38 and upper halves 0.21-0.31. "+
			"Fitted, said plainly: the member on the row (none 23.32, sca 23.61, hadoop 23.66, sda 25.63), none kept as rule v48's member; the upper cut is rule v48's bounded-narrow-upper, not fitted; rule v48's ratio cut does not hold here (a bound-spread record reads the lower half of a whole-second Poisson law as wide as the upper, 0.8-1.1 of it) and is not read. Not replayed under --job-order none or yarn. Empty: off, as in rule v55")
	b.Float(&p.boundSpreadLower, ParamBoundSpreadL, 0.2, speculators.In(0, 20, "spread"),
		"bound-spread records' spread (rule v5's, q50 - q10 of log times over z(0.9), weighted by their maps over the last 5) below which bounded-spread-narrow-member does not apply (rule v56): records narrow on both sides are alike maps whose only tail is a rare far outlier, which the bound does not drop in time (rule v48 keeps them out by its ratio cut). "+
			"Fitted, said plainly: without it heldout21/slots-rare-far-outliers (records spread 0.04-0.08 at seeds 1-3) went out, 15.56 -> 18.06 s to the bound (ras 15.35, hadoop 18.24); heldout54's Poisson maps read 0.23-0.38. 0.2 lies between; 0 never keeps a job out")
	b.String(&p.alikeWonMember, ParamAlikeWonMember, "sda",
		"member in alike-busy-member's (sca's) place for an exact job with reduces on Hadoop 1 slot pools that the alike switch chose (rule v7: the last map records' times spread below alike-busy-sigma, slow on less than spread-share of their nodes) when copies of the most recent map records that copied a task won at least alike-busy-copies-won-share of at least alike-busy-copies-won-copied copied maps, pooled over the last 5 such records (rule v55); the reason ends \"copies of the last map records won W of N, at or above 0.30 (alike-busy-copies-won-member)\". "+
			"The alike switch reads whether nodes are slow by a cut (a map at least 1.5x its job's median) that a continuum of tracker speeds, none an outlier, never passes, while the copies say what the cut misses: on alike nodes a copy of a task that is not late seldom wins, and one that lands on a faster tracker does (LATE §4: heterogeneity is what makes a copy pay; Xu & Lau §IV: above the cutoff load SCA clones nothing and leaves a straggler alone, SDA detects it and backs it up, the same least-work-first order for both). "+
			"The records that copied: sca's own jobs copy nothing above the cutoff load and write records of no copies, so the window is read over the records that copied (as rule v25 reads its futile evidence). "+
			"--job-order exact, 5 seeds: heldout52/hetero-slots-bell-speed-law-sum-four-uniform-0.8-2.4-three-reduces-fair (tracker slowdowns the sum of four U(0.2, 0.6), fair, three reduces a job, load 0.56) 46.35 -> 45.45 s (+4.3%; sda 43.59, the best single; hadoop 46.58): out -> in; 359 rows (sets 1-53): in +1, none out, behind hadoop 12 -> 12, 12 rows moved, the largest costs heldout25/slots-busy-fair-wide-reduce-tail 61.71 -> 62.46 (sca 62.60) and heldout50/fail-job-reduces-crash-sort-phase-reboot-or-gone-empirical-slowstart-1.0-slots-fair 81.94 -> 82.61 (farms 86.63), the largest gains tuning/hetero-stream 190.6 -> 183.3 and heldout/hetero-mixed 246.2 -> 239.1 (ese 195.3 and 249.7). "+
			"Traced at seed 1 under rule v53: sca 23 of 40 jobs (17 of them by rule v7, map records spread 0.10-0.20 and slow on at most 0.05 of their nodes, while their copies won 0.44-0.69 of 11-113 copied maps; 6 by rule v3 on an idle cluster), grass 11 (rule v49), hadoop 5, late 1; under v55 sda 15, sca 10, grass 9, hadoop 5, late 1. "+
			"Fitted, said plainly: the member (with 10 copied maps: sda 45.71, ese 45.53, grass 45.91; sda for every alike job, whatever its copies, 45.40; hadoop 46.61); the share is map-only-kill-behind-wins' 0.3, not fitted; the count is futileMinCopies (3), chosen over futile-map-copies' 10 (45.71, in by 0.06 s; 5 gave 45.45, 20 gave 45.92; the same rows moved at 3 and at 10). Slot pools only: on containers 20 rows' alike jobs read copies that won as often, and were not replayed with it. Not replayed under --job-order none or yarn. Empty: off, as in rule v53")
	b.Float(&p.alikeWonShare, ParamAlikeWonShare, 0.3, speculators.In(0, 1, "a share"),
		"share of the copied maps won by a copy, over the last 5 map records that copied a task, at or above which the alike switch's job on slot pools runs alike-busy-copies-won-member (rule v55); 0.3 as map-only-kill-behind-wins, not fitted")
	b.Int(&p.ownLostCopied, ParamOwnLostCopied, 3, speculators.In(0, speculators.MaxJobTasks, "a count"),
		"fewest of an exact job's own done maps that had a speculative copy, on Hadoop 1 slot pools (JobInfo.SlotPools), from which, when a copy won less than slots-own-copies-lost-wins of them, the job starts no more map copies: its member's map copy decisions and its slot choices of a map copy are dropped, and the reason ends \"then its own copies won W of N done copied maps, below 0.10, on slot pools: no more map copies (slots-own-copies-lost-copied)\" (rule v57). "+
			"A copy that redoes its task's own work (input skew: Reining in the Outliers in Map-Reduce Clusters using Mantri, §2) on a tracker no faster keeps its original's pace from a later start and never wins (LATE §4), while it holds a map slot a queued original would use (Xu and Lau §III); the job's own attempts say so, live as in replay, where the records of other jobs (rules v8, v14, v25) mix tenants whose copies win. "+
			"heldout50/tenants-three-copy-kinds-same-fresh-resample-reduce-spec-off-slots-fifo, 5 seeds: 47.65 s (behind hadoop 47.23) -> 46.54 (ese 45.01): the ETL tenant's same-work copies won 0 of 2,154 under rule v55 (its jobs 78.6 s, hadoop's 67.6), 0 of 1,788 under v57 (75.9 s), the ad hoc and report tenants' fresh and resampled copies still win (351 of 765, 214 of 328). "+
			"Fitted, said plainly: nothing on the target; 3 is futileMinCopies (rules v8, v14: 1 gave 45.6 s, 2 46.0, 5 47.0, 10 47.7 on the target) and the share is futile-copy-wins' 0.1 (0.3 gave the same). Slot pools and exact jobs only: on containers and for map-only jobs rules v36 and v42 read copies, and this was not tried there. Not replayed under --job-order none or yarn. 0: off, as in rule v55")
	b.String(&p.limpMember, ParamLimpMember, "gs",
		"member a job on Hadoop 1 slot pools moves to from spread-slots-slow-member (rule v28's ras, which the spread switch gave it on map records slow on at least spread-share of their nodes) once one of its own running original maps, read at its pace (its time to its last report over its progress, from a progress of 0.1), takes at least spread-slots-limping-factor times the median of its original maps (done ones at their time, running ones at their pace), at least 3 of them done; the job keeps it to its end, and the reason ends \"then a running map at its pace takes Rx the median of its N maps, at least 5.5: a limping tracker (spread-slots-limping-member)\" (rule v59). "+
			"A tracker that limps (fail-slow: alive and heartbeating, a tenth as fast; FARMS §2.3) loses each of its tasks to any fresh copy elsewhere, so GS, which copies whenever a copy would finish first (GRASS §3.1), gains there, where RAS copies only when the copy saves resources (GRASS §3), a test the pace estimate undercounts while it still mixes the task's time before the slowdown (LATE §4's progress rate). Rule v28's slow trackers, 1.6-3x slow, keep ras: at seed 1 a map there read at most 4.7x the median (heldout39) and 5.2x (heldout26), early (progress 0.1-0.24), where the target's limping maps read 6.1-9.1x. The job's own attempts say so, live as in replay; the records of earlier jobs did not: their slow shares, spreads, upper halves, copies' wins and the busy fraction at placement read alike on the target and on rule v28's rows. "+
			"heldout56/fail-job-maps-tracker-limps-x10-erlang-3-lengths-slots-fair, 5 seeds: 35.92 s (out, +11.6%) -> 33.74 (+4.9%; gs 32.18, grass 33.60, ras 36.03, hadoop 50.93); seed 1 under v57 ras 34 of 40 jobs (rule v28: records slow on 0.10-0.22 of their nodes), under v59 gs 19 (ras at first, moved by the switch), ras 15, hadoop 3, late 2, sca 1. "+
			"Over 383 rows (sets 1-57): in +1, none out, behind hadoop 11 -> 11, 19 rows moved; the largest costs heldout46/fail-job-maps-hangs-blips-or-long-empirical-lengths-slots-fifo 48.52 -> 48.99 (tws 51.43), heldout45/hetero-slots-pack-half-trackers-2x-slow-erlang-3-maps-fair 44.59 -> 44.92, heldout57/hetero-slots-sum-two-pareto-3-speed-law-floor-nominal-fair 35.20 -> 35.28 (out before and after, sda 33.45); gains heldout35/hetero-slots-speed-continuum-noisy-progress-ljf-fair 74.82 -> 73.82 (gs 71.34), heldout33/slots-slow-heartbeats-reduce-hangs-sleep-sums-fifo 110.8 -> 109.1 (gs 106.0), heldout44/fail-reduce-node-slow-or-hang-late-phase-lognormal-lengths-slots-fair 78.29 -> 77.36, heldout26 89.54 -> 89.10 (ras 88.75, hadoop 89.89), heldout39 88.02 -> 87.90 (ras 83.85: +4.8%). "+
			"Fitted, said plainly: the member (gs, the target's best single) and the factor on the target and heldout26 (see spread-slots-limping-factor). Slot pools and rule v28's path only (the spread switch on map records): containers were not tried. Not replayed under --job-order none or yarn. Empty: off, as in rule v57")
	b.Float(&p.lastWaveShare, ParamLastWaveShare, 0.15, speculators.In(0, 1, "a share"), "least slow share of the last map records (rule v28's reading) at which rule v68 moves a job of at most spread-slots-last-wave-reduces reduces to spread-slots-limping-member once its maps are done: below it the records' slow nodes are what a lognormal map law gives alike trackers by chance (rule v58's cut, spread-slots-weak-share), and a job's reduces may then run on trackers that differ for reduces only. "+
		"Fitted, said plainly: 0.15 is rule v58's cut; without it (first full check) heldout61/hetero-slots-reduce-only-uniform-1-3-speed-law-three-reduces-fifo (reduce trackers of speeds U(1, 3), alike map slots; records slow on 0.07-0.12 of their nodes) went out, 56.48 -> 60.25 s (ras 55.29); with it 56.36. The target at 0.12 42.79 s, at 0.15 42.91 (its records' shares: q10 0.12, median 0.20). 0: every share")
	b.Int(&p.lastWaveRed, ParamLastWaveRed, 3, speculators.In(0, speculators.MaxJobTasks, "a count"), "most reduces of a job on Hadoop 1 slot pools that rule v28's spread switch started on spread-slots-slow-member (ras), the last map records' slow share at least spread-slots-last-wave-share, for which the job moves to spread-slots-limping-member (rule v59's gs) once every map is done and one of its reduces runs, to its end; the reason ends \"then its maps done, its N reduces, at most 3, are its last wave (spread-slots-last-wave-reduces)\" (rule v68). "+
		"A job's few reduces, its maps done, are its last wave, and GS pays in a job's last wave (Trimming Stragglers in Approximation Analytics, §3.2, Guideline 2; GRASS switches from RAS to GS by the waves left, §4.1): RAS copies only when the copy saves resources, c x t_rem - (c+1) x t_new > 0 (GRASS §3), which a reduce slowed 3x part way, its fetched input to fetch again, seldom passes, while GS copies whenever a copy would finish first (§3.1), and an early copy of a reduce whose tracker then slows is insurance against a slowdown of unknown length (FARMS §2.3's fail-slow node). "+
		"--job-order exact, 5 seeds, 443 rows (sets 1-67): heldout64/fail-job-reduces-tracker-slowdown-x3-sort-phase-exponential-lengths-three-reduces-slots-fair (24 alike trackers of 4 map and 2 reduce slots, fair; lognormal maps of median 9 s, 3 reduces of 30 s a job; for half the jobs the tracker of most of their reduces slows x3 at U(0.34, 0.66) of their reduce progress for an exponential time of mean 40 s) 44.20 s (out, +5.0%) -> 42.91 (+2.0%; gs 42.09, the best single; ese 43.08, ras 44.97, hadoop 55.53). "+
		"Under v66 at seeds 1-5, 160 of its 200 jobs ran ras (rule v28: map records slow on 0.12-0.27 of their nodes, a lognormal's chance on alike trackers) and took 7,138 s against 6,693 under gs; under v68 127 of them move at their last map (5,312 s against 5,257 under gs and 5,685 under ras). "+
		"A job moved only once its own reduce reads slow did worse (44.7 s: the tracker's reduce is copied late, after its slowdown shows, and the copy fetches and merges again). "+
		"Over the 443 rows: in +1 (the target), none out, behind hadoop 11 -> 11, 31 rows moved; the largest gains heldout63/fail-random-tracker-slowdown-x4-at-map-progress-erlang-2-lengths-mean-60s-slots-fair 38.39 -> 37.69 and tuning/hetero-stream 184.1 -> 181.2, the largest costs heldout59/fail-job-maps-tracker-crash-at-map-end-slowstart-1.0-lognormal-down-expiry-120s-three-reduces-slots-fifo 61.12 -> 62.36 (farms 58.16: out before and after), heldout66/swim-reduces-kept-sort-heavy-phases-0.2-0.6-0.2-six-map-slot-trackers-slots-fifo 407.5 -> 409.7 and heldout44/fail-reduce-node-slow-or-hang-late-phase-lognormal-lengths-slots-fair 77.36 -> 78.41 (both in). "+
		"Fitted, said plainly: the bound, 3, is the target's reduces; rule v28's rows of 5-6 reduces a job, where ras is best, went out with no bound (an earlier form, a job moved once its maps were done and 3 of its reduces read past their copy phase: heldout26/slots-old-gen-reduce-pools-fair 89.10 -> 108.3 s, behind hadoop 89.89; heldout27/hetero-two-slow-kinds-pools-fair 81.08 -> 88.18; heldout39/overload-slowstart-all-pareto-reduces-slow-quarter-slots-fair 87.90 -> 98.37); 2 leaves the target unmoved; the member is rule v59's, the target's best single. Slot pools and rule v28's path only. Not replayed under --job-order none or yarn. 0: off, as in rule v66")
	b.Float(&p.limpFactor, ParamLimpFactor, 5.5, speculators.In(0, 1000, "a factor"),
		"least ratio of a running original map's time at its pace to the median of its job's original maps at which rule v59 moves a job on rule v28's path to spread-slots-limping-member. "+
			"Fitted on the target and rule v28's rows, said plainly (5 seeds; target, heldout26/slots-old-gen-reduce-pools-fair, heldout27/hetero-two-slow-kinds-pools-fair, heldout39/overload-slowstart-all-pareto-reduces-slow-quarter-slots-fair, whose best is ras 83.85 and hadoop 89.89, 100.2, 121.0): 2.5 32.63, 113.75, 93.85, 109.32; 3 33.06, 102.42, 85.55, 102.27; 4 33.11, 90.20 (behind hadoop), 81.09, 93.72; 4.5 33.23, 89.62, 80.69, 89.41 (out); 5 33.98 (out), 89.57, 80.89, 88.94; 5.5 33.74, 89.10, 81.08, 87.90; 6 33.95 (out), 89.43, 81.08, 88.02; 7 34.54, 89.54, 81.08, 88.02. 5.5 is the only tried value with every one of these in: the target is in by 0.05 s (+4.9%), and the curve is not monotone (seed noise of which maps cross the cut). "+
			"Also tried: a median of the done maps alone (the first to end are the fastest) moved heldout26 behind at 5 (109.2 s); two maps limping at once, 3 / 4 / 4.5: target 34.38 / 34.44 / 34.99 (out: a second map on the tracker comes late); a map's time so far in place of its pace, 3 / 4 / 4.5: target 34.84 / 35.87 / 36.15. 0: off, as in rule v57")
	b.String(&p.trackerMember, ParamTrackerMember, "gs",
		"member a job on Hadoop 1 slot pools moves to from slots-one-reduce-member (rule v37's hadoop: one reduce, at least slots-one-reduce-maps maps) once its own original maps, done ones at their time and running ones at their pace (from a progress of 0.1), read on the trackers that ran two or more of them (at least slots-one-reduce-tracker-maps maps on at least 3 trackers), spread between trackers (the standard deviation of the trackers' mean log times) at least slots-one-reduce-tracker-split times their spread on one tracker (the pooled deviation about each tracker's mean); read once, at the first Decide with enough maps; the job keeps it to its end, and the reason ends \"then its maps' log times spread B between K trackers, at least 1.2x the W on one tracker (N maps): trackers of different speeds (slots-one-reduce-tracker-member)\" (rule v60). "+
			"Trackers of different speeds (LATE §5.2's heterogeneous nodes; Xu and Lau §III's node speed variation) make a task late by where it runs, not by its work, so a copy placed on a faster tracker wins, the lone reduce's too, and GS copies whenever a copy would finish first (GRASS §3.1); rule v37's reason, a reduce copy taking a reduce slot other jobs' reduces queue for, stands where the trackers are alike (heldout37/overload-one-reduce-slots-reduce-heavy-fair) and where the load is past capacity (heldout58/overload-past-capacity-1.15-poisson-whole-second-gaps-slots-fair, alike trackers), whose jobs' maps read 0.4-1.0 (seeds 1-2), against 1.2-2.4 on the target but for one job at 0.68. "+
			"The job's own attempts and their trackers say so, live as in replay; what the job knows at its first decision did not: the busy fraction at placement (target 0.00-0.47, the overload row 0.00-0.51, heldout37 0.00-0.54), its maps' count, and before ratio records nothing of earlier jobs; nor did its own maps' spread or its slowest map's pace at 5 or 8 maps done (spread 0.01-0.48 against 0.08-0.55, pace 2.1-3.8x the median against 1.4-4.0x). "+
			"heldout58/hetero-slots-erlang-4-speed-law-one-reduce-slot-trackers-fifo (24 trackers of 4 map slots and 1 reduce slot, speeds an Erlang-4 law of mean 1.2, FIFO, load 0.52), 5 seeds: 31.28 s (out, +19.5%) -> 27.12 (+3.6%; gs 26.17, grass 26.69, ras 29.77, hadoop 37.38); seed 1 before gs 16, ras 13, hadoop 7 (jobs 1-7 on rule v37 before two ratio records), after gs 25, ras 11. "+
			"Over 395 rows (sets 1-59): in +1, none out, behind hadoop 10 -> 10, 10 rows moved; the largest costs heldout43/fail-per-job-map-node-slowdowns-pareto-lengths-slots-fifo 41.59 -> 41.91 (grass 40.66), heldout57/load-sum-three-lognormal-gaps-0.82-three-map-slot-trackers-slots-fifo 34.77 -> 35.02 (sda 33.99), heldout43/swim-reduces-kept-two-tenants-reduce-spec-off-slots-fifo 334.2 -> 335.6, heldout58/swim-reduces-kept-slowstart-0.05-sum-three-uniform-noise-slots-fifo 400.2 -> 402.0 (out before and after, sca 349.2); gains heldout50/hetero-normal-speed-law-wide-map-narrow-reduce-pools-uniform-maps-slots-fair 42.57 -> 41.72 (ese 40.75), heldout40/fail-weibull-0.6-slots-crash-midway-fifo 33.76 -> 33.60 (gs 29.0, out). "+
			"Fitted, said plainly: the member is the target's best single (grass 27.25, ras 28.21); the split and the count, on the target (see slots-one-reduce-tracker-split). Rule v37's jobs only (slot pools, one reduce); the tail switch's busy member (rule v29's ras) read the same way put heldout27/clockwork-identical-jobs-gamma-fifo and heldout38/fail-long-shuffle-slowstart-hang-crash-fair behind hadoop and heldout40/midload-long-reduces-slowstart-0.5-slow-rack-containers-fair out (152.3 -> 157.8 s, ras 145.5) and was left out. Not replayed under --job-order none or yarn. Empty: off, as in rule v59")
	b.Float(&p.trackerSplit, ParamTrackerSplit, 1.2, speculators.In(0, 1000, "a ratio"),
		"least ratio of the spread between trackers to the spread on one tracker of a job's original maps' log times at which rule v60 moves a job rule v37 took to slots-one-reduce-tracker-member. "+
			"Alike trackers give about 1/sqrt(maps a tracker) of the spread on one (0.5-0.6 for three or four maps a tracker), trackers apart give more: the target's jobs read 1.2-2.4 at seeds 1-2 (one 0.68), the alike rows 0.3-1.0 (heldout57/load-sum-three-lognormal-gaps-0.82-three-map-slot-trackers-slots-fifo one job at 1.35). "+
			"Fitted on the target, said plainly (5 seeds, 5% line 27.48 s): 1.0 27.12, 1.2 27.12, 1.5 28.18 (out), 2 28.56 (out); 1.2 is the middle of the values tried with the target in, a full check replayed at 1.2 only. 0: off, as in rule v59")
	b.Int(&p.trackerMaps, ParamTrackerMaps, 8, speculators.In(2, speculators.MaxJobTasks, "a count"),
		"fewest of a job's original maps, on trackers that ran two or more of them (at least 3 such trackers), from which rule v60 reads its trackers' split (slots-one-reduce-tracker-split), once. "+
			"Fitted on the target, said plainly (5 seeds): 6 27.26 s, 8 27.12, 12 27.02; 8 is a count of at least two maps on each of the 3 trackers and a few more, not a fit of its own; the full check was replayed at 8 only")
	b.String(&p.strongSlowMember, ParamStrongSlowM, "gs", "spread-slots-slow-member's place (rule v28's ras) on Hadoop 1 slot pools when the spread switch fires on the last map records' slow share (maps at least 1.5x their job's median on at least spread-share of their nodes) and that share is at least spread-slots-strong-share, for a job of at most spread-slots-weak-reduces reduces (rule v66, a: rule v58's other end); the reason ends \"at least 0.30: a slow generation of trackers (spread-slots-strong-member)\"; rule v59 still moves the job to spread-slots-limping-member when a map limps. Maps slow on a third of the trackers or more are a slow generation, not chance (alike trackers show 0.07-0.14, rule v58; LATE §5.2's heterogeneous nodes), and a copy placed on the fast generation finishes first: GS copies whenever a copy would finish first (GRASS §3.1), RAS only when the copy saves resources, c x t_rem - (c+1) x t_new > 0 (GRASS §3), which a map 2-3x slow barely passes. A job of more reduces keeps RAS's thrift for the reduce pool. --job-order exact, 5 seeds, 431 rows (sets 1-65), with slots-limping-member: heldout65/hetero-slots-two-generations-new-uniform-0.6-0.9-six-map-slots-old-lognormal-2-three-map-slots-fifo (12 new trackers of 6 map and 3 reduce slots, slowdown U(0.6, 0.9); 12 old of 3 map slots and 1 reduce slot, slowdown lognormal of median 2; 2 reduces a job, FIFO, load 0.58) 31.14 s (out, +13.3%) -> 28.36 (+3.2%; gs 27.48, the best single; grass 27.94, ras 29.51, hadoop 44.16); this switch alone 30.09, slots-limping-member alone 29.22. Its jobs' slow shares at seeds 1-5: quartiles 0.29/0.33/0.35 (q10 0.26); rule v28's rows where ras is best read lower: heldout27/hetero-two-slow-kinds-pools-fair 0.16/0.18/0.21, heldout39/overload-slowstart-all-pareto-reduces-slow-quarter-slots-fair 0.20/0.22/0.24, heldout26/slots-old-gen-reduce-pools-fair 0.21/0.23/0.26 (q90 0.29), heldout6/slots-three-speeds-reduces 0.24/0.26/0.29. Fitted, said plainly: the member is the target's best single; the share (see spread-slots-strong-share); the reduces bound is rule v58's, taken after the share alone put heldout26 (5 reduces a job) behind hadoop (89.10 -> 93.61 s, hadoop 89.89). Not replayed under --job-order none or yarn. Empty: off, as in rule v64")
	b.Float(&p.strongSlowShare, ParamStrongSlowShare, 0.3, speculators.In(0, 1, "a share"), "least slow share of the last map records (rule v28's reading) at which rule v66 (a) gives a job of at most spread-slots-weak-reduces reduces on slot pools spread-slots-strong-member in ras's place. Fitted on the target, said plainly (5 seeds, 5% line 28.85 s, with slots-limping-member at 3): 0.25 28.21, 0.30 28.36, 0.33 28.87 (out), 0.35 29.09 (out); 0.3 is the round value with the target in and the other rule v28 rows' shares below it (their q90 0.22-0.31); the full check was replayed at 0.3 only. 0: off, as in rule v64")
	b.String(&p.slotsLimpMember, ParamSlotsLimpMember, "gs", "member an exact job on Hadoop 1 slot pools of at most spread-slots-weak-reduces reduces moves to from late or hadoop (whatever rule gave it: the exact member before records, rule v3's busy member; not rule v37's one-reduce jobs, which rule v60 reads, nor a job whose member a records rule fixed at placement, rules v41, v44 and v61 among them) once one of its own running original maps, read at its pace (from a progress of 0.1), takes at least slots-limping-factor times the median of its original maps (done ones at their time, running ones at their pace), at least 3 of them done: rule v59's reading for jobs that rule v28 did not start; the job keeps it to its end, and the reason ends \"then a running map at its pace takes Rx the median of its N maps, at least 3.0: trackers of different speeds (slots-limping-member)\" (rule v66, b). LATE judges no task that has run less than a minute (late.min-runtime-ms 60000; LATE §4, Hadoop's own floor), so on the target, maps of 9 s and reduces of 20 s on trackers 0.6-4x slow, late copies almost nothing (late 50.98 s against none 51.50); a job placed before any record ran late there (2-3 jobs a seed, the first on a cluster whose slow generation no record yet shows) or hadoop (busy), and lost most: at seeds 1-5 the 10 late jobs took 611 s against 275 under gs, the 6 hadoop ones 317 against 170. A map 3x its job's median on trackers of two generations runs on the slow one, and a copy on the fast one finishes first (GRASS §3.1). Evidence: see spread-slots-strong-member (the target 31.14 -> 28.36 s with both; this switch alone 29.22); over 431 rows in +2 (the target; heldout56/fail-job-maps-tracker-limps-x10-erlang-3-lengths-slots-fair 34.51 -> 33.68, gs 32.18: out -> in), none out, behind hadoop 11 -> 11, 25 rows moved; the largest gains heldout62/hetero-slots-empirical-speed-law-eight-values-lemon-in-eight-fair 42.70 -> 40.35 and heldout48/hetero-slots-pools-shrink-with-speed-fast-quarter-fair 35.25 -> 33.28, the largest costs heldout65/load-staircase-down-1.5-0.8-0.5-0.25-backlog-carries-over-slots-fifo 45.66 -> 46.04 (ese 43.13, hadoop 47.47: out before and after) and heldout50/tenants-three-copy-kinds-same-fresh-resample-reduce-spec-off-slots-fifo 46.41 -> 46.50 (in). Fitted, said plainly: the member is the target's best single; the factor (see slots-limping-factor); the reduces bound is rule v58's, taken after factor 3 without it put heldout39/overload-slowstart-all-pareto-reduces-slow-quarter-slots-fair out (87.90 -> 89.19 s, ras 83.85; 6 reduces a job). Not replayed under --job-order none or yarn. Empty: off, as in rule v64")
	b.String(&p.poolMember, ParamPoolMember, "mantri", "member of an exact job on Hadoop 1 slot pools of more than spread-slots-weak-reduces and at most spread-slots-reduce-pool-reduces reduces that rule v28 gives spread-slots-slow-member (ras; not rule v58's or v66's member) or the tail switch its member, when its first placement finds its reduce pool (ClusterView.ReduceSlots less ReduceIdle, over ReduceSlots) at least spread-slots-reduce-pool-load busy and the last spread-slots-reduce-pool-records reduce-pool records average at least that too; the reason ends \"placed with its reduce pool B busy, and at the last 2 placements M on average, at least 0.90: a reduce pool that stays full (spread-slots-reduce-pool-member)\"; rule v59 still moves the job to spread-slots-limping-member when a map limps. Every placement on slot pools hands out a reduce-pool record (speculators.MarkReducePool, memory only) while the switch is on (rule v67). "+
		"Slot pools do not lend slots between the pools (LATE §2): in a reduce pool that stays full every reduce copy takes the slot a queued reduce of the next job waits for (Xu & Lau §III's high-load regime, in one pool), while the busy fraction of both pools together reads a light cluster. RAS copies when c x t_rem - (c+1) x t_new > 0 (GRASS §3), and in a reduce's copy phase our t_rem extrapolates the whole reduce at the shuffle's rate (LATE §4.2's reduce-progress misestimation; docs/auto-history.md, rule v52's search): ras alone on the target made 137 reduce copies at seed 1, 133 of them in the copy phase. Mantri copies a task only when its remaining time is well past a new copy's, and restarts rather than piles copies while tasks wait (Mantri §5.1). "+
		"heldout48/overload-reduce-pool-0.9-map-pool-0.4-lognormal-reduces-slots-fifo (16 trackers of 4 map and 2 reduce slots, FIFO, alike; 45 jobs of 10-30 lognormal maps and 4 lognormal reduces of median 45 s; reduce pool offered 0.91, map pool 0.40), --job-order exact, 5 seeds: 106.5 s (behind hadoop 87.99) -> 86.55 (mantri 87.18, the best single; ras 106.6); per seed auto 87.8/82.4/81.3/95.4/86.0 against hadoop 90.0/86.6/77.5/94.4/91.6; seed 1 before ras 40 of 45 jobs, after mantri 34 by this switch, ras 6 (jobs placed before two full records). "+
		"Fitted, said plainly: the member is the target's best single; the load, the record count and the reduces bound (see those parameters); the target is sensitive to them: load 0.8 89.60 s, 0.95 89.53, 1 89.76; records 1 90.95, 3 89.86, 4 89.93; member hadoop 89.59, none 90.53 (all within 5% of mantri, behind hadoop). Not replayed under --job-order none or yarn. Slot pools are simulator only (live, YARN runs every task in a container of one pool, and LiveView leaves the reduce pool 0): the switch never acts live. Empty: off, as in rule v66")
	b.Float(&p.poolReduceLoad, ParamPoolReduceLoad, 0.9, speculators.In(0, 1, "a fraction"), "least busy fraction of the reduce pool at the job's first placement, and least mean of the last spread-slots-reduce-pool-records reduce-pool records, at which rule v67 runs spread-slots-reduce-pool-member. A job reads its own placement and the records of the placements before it, so the reading stays with the pool and not with one instant: with the current placement alone (spread-slots-reduce-pool-records 0, before the reduces bound and for rule v66's members too) the target read 87.70 s but 10 other slot-pool rows lost, 7 of them out (heldout27/hetero-two-slow-kinds-pools-fair 81.08 -> 87.13, heldout39/overload-slowstart-all-pareto-reduces-slow-quarter-slots-fair 87.90 -> 102.06, heldout66/hetero-slots-erlang-2-speed-law-mean-1.4-both-tails-36-two-map-slot-trackers-fair 27.37 -> 31.52). The target's reduce pool read 1.00 at 9 in 10 of rule v28's placements (ras), the slow-tracker rows' median 0.58-1.00 with a lower tenth 0.06-0.5. Fitted on the target, said plainly (see spread-slots-reduce-pool-member)")
	b.Int(&p.poolReduces, ParamPoolReduces, 4, speculators.In(0, speculators.MaxJobTasks, "a count"), "most reduces of a job rule v67 moves (it needs more than spread-slots-weak-reduces, 2, too: a job of at most 2 reduces ends with its maps, and rules v58, v59 and v66 read its maps). Fitted, said plainly: without it heldout27/hetero-two-slow-kinds-pools-fair (6 reduces a job on trackers 1.6x and 2.5x slow, fair) went 81.08 -> 84.98 s (ras 78.76: out) and heldout39/overload-slowstart-all-pareto-reduces-slow-quarter-slots-fair (6 reduces, a quarter of the trackers 2x slow, reduces after every map, fair) 87.90 -> 96.42 (ras 83.85: out), rows whose reduce pools stay as full as the target's but where RAS's reduce copies pay, moving off slow trackers; their slow trackers are what the records cannot tell from chance (rule v52's search), so the bound stands in; without the lower bound heldout56/fail-job-maps-tracker-limps-x10-erlang-3-lengths-slots-fair (2 reduces) went 33.68 -> 34.88 (gs 32.18: out). 3 leaves the target at 106.53 (4 reduces a job)")
	b.Int(&p.poolRecords, ParamPoolRecords, 2, speculators.In(0, grass.TailWindow, "a count"), "how many of the latest reduce-pool records rule v67 averages (it acts only once it holds that many); 0: the job's own placement alone. Fitted on the target, said plainly, with spread-slots-reduce-pool-load 0.9 (5 seeds): 0 87.70 s, 1 90.95, 2 86.55, 3 89.86, 4 89.93, 5 91.58, 6 87.69 (hadoop 87.99); with the switch the target's reduce pool dips, since mantri copies fewer reduces, and the readings are noisy by job (FIFO bursts of arrivals)")
	b.Float(&p.slotsLimpFactor, ParamSlotsLimpFactor, 3, speculators.In(0, 1000, "a ratio"), "least ratio of a running original map's time at its pace to the median of its job's original maps at which rule v66 (b) moves a job on slot pools from late or hadoop to slots-limping-member. Fitted on the target, said plainly (5 seeds, with spread-slots-strong-share 0.3): 2.5 28.35 s, 3 28.36, 4 28.62, 5.5 (rule v59's) 29.10 (out); 3 is the round value below the slow generation's typical 2.5-3x (old trackers of median slowdown 2 against new of 0.75); the full check was replayed at 3 only. 0: off, as in rule v64")
	b.String(&p.oneRedLimpMember, ParamOneRedLimp, "gs", "member a job on Hadoop 1 slot pools moves to from slots-one-reduce-member (rule v37's hadoop: one reduce, at least slots-one-reduce-maps maps) when it was placed before slots-one-reduce-ratio-records records of reduce against map times (rule v39's TailFit.ReduceRatio: the first jobs of a cluster, before rule v39 can say whether the reduce or the map phase is the long part), once one of its own running original maps, read at its pace (from a progress of 0.1), takes at least slots-one-reduce-limping-factor times the median of its original maps (done ones at their time, running ones at their pace), at least 3 of them done (rule v59's reading); the job keeps it to its end, and the reason ends \"then a running map at its pace takes Rx the median of its N maps, at least 3.5: a heavy map tail before slots-one-reduce-ratio-records records of reduce against map times (slots-one-reduce-limping-member)\" (rule v72). "+
		"Rule v37 holds a lone reduce's copy back because it takes a reduce slot other jobs' reduces queue for (Xu and Lau §III); rule v39 lets a job go once the records say its map phase, not its reduce, is the long part, where a heavy map tail (Mantri §2) makes map copies shorten the job (LATE §4) and GS copies whenever a copy would finish first (GRASS §3.1). Before those records rule v37 ran hadoop blind: on the target the first 4 jobs of seed 1 (no record, then one) ran hadoop, took 228 s against 109 under gs, and with FIFO delayed every later job (119 of the 128 s summed gap to gs). A map 3.5x its job's median is the job's own evidence of the tail the records would have shown. "+
		"Evidence, --job-order exact, 5 seeds: heldout40/fail-weibull-0.6-slots-crash-midway-fifo (Weibull maps of shape 0.6, one reduce of 20 s a job, FIFO, a tracker crash midway) 33.60 s (out, +15.8%) -> 29.48 (+1.6%; gs 29.00, the best single; hadoop 56.23); its 27 jobs placed before two ratio records (seeds 1-5) took 1,565 s under v70, 780 under v72, 759 under gs. Over 467 rows (sets 1-71) in +1, none out, behind hadoop 9 -> 9, 13 rows moved, every other one by less than 2% and all but one toward the best: heldout43/fail-per-job-map-node-slowdowns-pareto-lengths-slots-fifo 41.87 -> 41.09, heldout68/load-two-peaks-1.5-short-lull-0.3-between-backlog-nearly-drained-slots-fifo 40.49 -> 40.05, heldout58/hetero-slots-erlang-4-speed-law-one-reduce-slot-trackers-fifo 27.14 -> 26.77, heldout58/overload-past-capacity-1.15-poisson-whole-second-gaps-slots-fair 46.45 -> 46.13 (ese 44.33); the one cost heldout48/error-swim-reduces-kept-erlang-2-noise-slots-fifo 69.95 -> 70.02 s to bound (grass 75.97); heldout37/overload-one-reduce-slots-reduce-heavy-fair (rule v37's own row: 10 s maps, a 90 s reduce) did not move. "+
		"Fitted, said plainly: the member is the target's best single; the factor and the record count on the target and heldout58/overload-past-capacity-1.15-poisson-whole-second-gaps-slots-fair (see slots-one-reduce-limping-factor); with no record only (not one record) at factor 3, that row went out (46.544, its 5% line 46.542) and the target came to 30.42. Not replayed under --job-order none or yarn. Empty: off, as in rule v70")
	b.Float(&p.oneRedLimpFactor, ParamOneRedLimpFactor, 3.5, speculators.In(0, 1000, "a ratio"), "least ratio of a running original map's time at its pace to the median of its job's original maps at which rule v72 moves a job rule v37 took before slots-one-reduce-ratio-records ratio records to slots-one-reduce-limping-member. "+
		"Fitted, said plainly, 5 seeds, on the target (heldout40/fail-weibull-0.6-slots-crash-midway-fifo, gs 29.00) and heldout58/overload-past-capacity-1.15-poisson-whole-second-gaps-slots-fair (ese 44.33, its 5% line 46.542; 46.45 under v70): 3 29.5 and 47.1 (out), 3.5 29.48 and 46.13, 4 29.52 and 46.93 (out), 5 29.68 and 46.45, 6 29.89 and 46.45; the overload row's first jobs read 3.0-3.9 where they switched at 3, the target's 3.1-8.4. The full check was replayed at 3.5 only (and at 3 with no record only). 0: off, as in rule v70")
	b.String(&p.narrowClone, ParamNarrowClone, "sca",
		"member of an exact map-only job (any cluster), or of an exact job with reduces on Hadoop 1 slot pools (JobInfo.SlotPools) whose records say its reduces wait on its maps (the largest of the last map-to-reduce records' reduce times after the maps at least narrow-clone-reduce-ratio times their map phase, rule v39's reading, or fewer than slots-one-reduce-ratio-records such records), placed after at least 3 map records whose upper-half spread (rule v17's, (q90 - q50) of log times over z(0.9), weighted by maps) is at most narrow-clone-upper, when no map record ran slow (at least 1.5x its median) on spread-share of its nodes and no reduce record on reduce-spread-share (rule v54's reading); from its first decision, over the map-only, futile, lost-paced, spread, copies-win, busy, small, tail, one-reduce and limping members (rules v41 and v44, a deadline or error bound beside, still take over); the reason ends \"the last N map records' upper half spread U, at most 0.25, and no record ran slow on 0.07 of its nodes: no tail to detect (narrow-clone-member)\" (rule v61). "+
			"Such records are a law with no tail (SWIM task noise that is a sum of three uniforms: a bell bounded at 0.3-1.8x, upper half 0.17-0.23 against a lower half of 0.21-0.29): the slowest task is not far past the median, so a detected copy saves little while it holds a slot a queued original would use (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III; LATE §4: without slow nodes no faster node to move to), and the copies that lose ran at their originals' pace (0.8-1.0 of lost copies on the targets); SCA clones a small job's tasks at launch while slots are idle, where the least of two draws still cuts a bell's upper half, and copies nothing once they are not (§IV), least work first. Reduces that wait on the maps (slow start 0.05) make the job's end its last map's. "+
			"--job-order exact, 5 seeds: heldout58/swim-reduces-kept-slowstart-0.05-sum-three-uniform-noise-slots-fifo 400.2 s (out, +14.6%) -> 364.0 (+4.2%; sca 349.2, the best single; hadoop 432.5); heldout59/swim-map-only-sjf-sum-three-uniform-noise-0.3-1.8-containers-fifo 115.0 (out, +7.4%) -> 111.8 (+4.4%; sca 107.1; hadoop 117.9). Seed 1 under v59: heldout58 ese 15 (rule v9: reduce records spread 0.25-0.35, their squatting reduces), sca 13 (rules v14/v32: copies lost), hadoop 8 (rule v37, one reduce), grass 2, late 2; heldout59 grass 38 (map-only-member), sca 2. "+
			"Seed 1 under v61: heldout58 sca 38, late 2 (the first two jobs, before 3 records); heldout59 sca 28, grass 12. "+
			"Over 395 rows (sets 1-59, 5 seeds, exact): in +2, none out, behind hadoop 10 -> 10, 17 rows moved; the largest costs heldout_hetero-mixed 238.8 -> 245.7 (ese 249.7), heldout51/swim-map-only-empirical-two-value-noise-bad-read-one-in-ten-containers-fair 84.76 -> 92.44 (ras 98.07), heldout50/fail-job-reduces-crash-sort-phase-reboot-or-gone-empirical-slowstart-1.0-slots-fair 82.61 -> 85.33 (farms 86.63), all still ahead of the best single. "+
			"Fitted, said plainly: the member (sca, the targets' best single; as map-only-member on heldout59 hadoop 109.8, none 110.3, sda 111.1); the cut is rule v54's 0.25 (0.22 left heldout59 out, 113.8 s); the ratio cut is rule v39's 2, chosen after the first full check (without it heldout52/hetero-slots-bell-speed-law-sum-four-uniform-0.8-2.4-three-reduces-fair, whose tracker-speed bell reads the same upper half, 0.13-0.21, went out and behind hadoop: 47.26 s, sda 43.59, hadoop 46.58; its records read reduce ratios of 1.0-1.8). "+
			"Also tried: the upper half below 0.9 of the lower (rule v17's no-tail cut) as well: heldout59 112.54 (out by 0.1 s; its records 0.67-0.95); the ratio cut without the before-records case: heldout58 367.8 (+5.3%, out). Not for exact jobs on containers, where rule v54 sends such jobs to hadoop (heldout53's triangular-noise row). Not replayed under --job-order none or yarn. Empty: off, as in rule v59")
	b.String(&p.spreadOnce, ParamSpreadOnce, "late",
		"member in spread-member's place (grass) for an exact job with reduces on containers when the slow nodes the map records show are few and not repeated: fewer than spread-repeat-records of the last 5 map records ran slow on spread-share (0.07) of their nodes and none on spread-once-below (0.2) (rule v62). "+
			"It acts where rule v6's spread switch fires on its map records after at least 2 of them (not on the first record, nor on rule v8's reduce records), and where rule v12's busy switch gives the spread member for alike means beside one slow map record (no slow reduce record), the latter only after map records whose copies won at least futile-copy-wins (0.1) of at least 3 copied maps and after at least one reduce record (none slow: without one a slow reduce node cannot be ruled out). "+
			"A node slower than the others is slow for every job placed on it (LATE §2's heterogeneous environment), so real node speed shows in record after record and on many of a job's nodes; a lone record slow on a few nodes (0.07-0.17) is what a task noise draws on nodes that ran one or two of a job's maps (a lognormal of sigma 0.3 puts one map in eleven past 1.5x its median), or a killed original read at its time over a progress that is itself uneven (GRASS §5.1's imperfect estimates). "+
			"There GRASS copies every task whose t_rem, read from the same uneven progress, exceeds a copy's t_new (GRASS §3.1), so copies of tasks that were not late take containers other jobs' tasks wait for under fair (Xu & Lau §III); late's slow-task cut by progress rate and 10% cap (LATE §4) copy far less. "+
			"--job-order exact, 5 seeds, 407 rows (sets 1-61): heldout60/swim-reduces-kept-noisy-progress-sigma-0.6-eight-segments-lognormal-0.3-noise-containers-fair 349.2 s (out, +6.0%, behind hadoop's 338.1) -> 337.3 (late/farms/tws 329.4: +2.4%, in, 0.8 s ahead of hadoop; seeds 3 and 5 moved, 303.4 -> 296.5 and 485.0 -> 432.6, the others not); 56 rows moved, none out, behind hadoop 11 -> 10, in +1; the largest costs heldout38/overload-two-three-long-reduces-containers-fair 201.2 -> 204.1 (already out and behind hadoop's 191.0), heldout29/fail-reduce-node-crash-reduce-spec-off-fifo 86.44 -> 89.02 (farms 102.0), heldout9/speed-continuum 57.47 -> 58.23 (gs 57.0). "+
			"Fitted, said plainly: the member is the lead the search found (spread-member=late alone: 330.0 s); the rule's reach was cut down over five full checks (docs/auto-history.md, rule v62): on every record of rules v6, v8 and v12 (the first record and reduce records too) 20 rows fewer in; with the first record and reduce records left out 8 rows fewer in still (heterogeneous rows whose lone slow records read 0.31-0.82 among records of none: heldout11/two-tenants-tails, heldout21/fast-minority-new-nodes, tuning/small-idle, heldout4/weak-quarter-small), hence spread-once-below; then rule v12's part sent heldout47/tenants-wide-map-only-same-work-tiny-adhoc-capped-reports-containers-fair out (27.6 s, grass 25.96; its records' copies won 0 of 14), hence the wins floor (rule v8's cut), and heldout47/hetero-reduce-only-slow-third-eight-container-nodes-pack-fair out (50.0 s, ras 47.32; no reduce record yet when it fired), hence the reduce record. Without rule v12's part the target stays out (342.4 s, behind hadoop). Empty: off, rule v61")
	b.Int(&p.spreadRepeat, ParamSpreadRepeat, 2, speculators.In(1, tailJobs, "a count"),
		"how many of the last 5 map records must have run slow on spread-share of their nodes for spread-member to run where rule v62 reads them (spread-once-member); 2, the least that is a repeat, not fitted; 1: rule v61")
	b.Float(&p.spreadOnceBelow, ParamSpreadOnceBelow, 0.2, speculators.In(0, 1, "a share"),
		"the slow share of the slowest of the last 5 map records below which rule v62 (spread-once-member) applies: a node speed shows on many of a job's nodes (the heterogeneous rows' lone slow records read 0.31-0.82), a noise draw on few (the target's 0.04-0.17). Fitted between the two, not tuned further (0.15 and 0.3 gave the target the same mean, 334.2 s, in a form without the reduce-record floor); 0: no such bound")
	b.Float(&p.narrowCloneUpper, ParamNarrowCloneU, 0.25, speculators.In(0, 10, "a spread"),
		"the upper-half spread of the last map records (rule v17's, weighted by maps; at least 3 records) at or below which narrow-clone-member applies (rule v61); rule v54's cut (narrow-exact-upper), not fitted anew: 0.22 left heldout59's row out (113.8 s against 111.8); 0 never")
	b.Float(&p.narrowCloneRatio, ParamNarrowCloneR, 2, speculators.In(0, speculators.MaxReduceRatio, "a ratio"),
		"least of the largest reduce-to-map-phase ratio of the last records (rule v39's reading, at least slots-one-reduce-ratio-records of them) for which an exact job on slot pools takes narrow-clone-member (rule v61); rule v39's cut, not fitted anew; 0: every exact job on slot pools (heldout52's hetero bell row went behind hadoop)")
	b.Int(&p.alikeNoWait, ParamAlikeNoWait, 2, speculators.In(0, speculators.MaxJobTasks, "a count"),
		"most reduces of an exact job with reduces that rule v7 gives alike-busy-member (sca: placed at a busy fraction of at least busy-load, the last map records' times spread below alike-busy-sigma and slow on less than spread-share of their nodes) for which the job keeps no rule v33 wait of its reduces (reduces-after-maps-idle-share): its reduces are placed with its other tasks in order's level (like rule v33's wait it acts through the job order on free slots: simulator only); the reason says \"N reduces, at least 0.30 of I idle slots, on the alike member: no wait (alike-busy-no-wait-reduces)\" (rule v63). "+
			"Xu and Lau (Optimization for Speculative Execution in Big Data Processing Clusters, Algorithm 1 and §IV) order a job's tasks by its fewest unassigned tasks, reduces among them, and above the cutoff load SCA clones only into slots left idle: on alike nodes with tight map times its job's end is its last map plus its reduces, and a reduce held back until at most 6 maps a reduce run (rule v33) then queues for a container behind every other job's maps on a busy cluster, where one or two reduces a job are a small share of the containers the wait would keep for the queue. "+
			"--job-order exact, 5 seeds: heldout43/hetero-mild-continuum-0.8-1.25-same-work-busy-0.85-fair (28 nodes of speeds U(0.8, 1.25), narrow normal maps, 2 reduces a job, same-work copies, fair, load 0.85) 57.99 s (out, +6.8%) -> 56.52 (+4.1%; sca 54.31, the best single; sda 54.71; hadoop 63.91); per seed 78.41/51.59/60.30/45.28/54.38 -> 75.77/49.90/59.40/44.22/53.35. Seed 1 under v61 and v63: sca 31 (rule v7 with rule v33's wait under v61), sda 8 (placed before 4 records), grass 1 (the first job, idle cluster). "+
			"Over 407 rows (sets 1-61): in +1, none out, behind hadoop 11 -> 11, 7 rows moved; the largest cost heldout15/long-maps-one-wave 880.3 -> 881.6 (ese 865.2), gains heldout29/overload-bounded-uniform-maps-fair 42.20 -> 41.63 (sca 40.71) (the others within 0.2 s). "+
			"Fitted, said plainly: the cut, 2 (rule v58's spread-slots-weak-reduces, not fitted anew), was added after the first full check: without it heldout6/alike-large-reduces-busy (10 reduces a job) went out (171.1 -> 172.7 s, sca 164.1), where ten reduces held early are a large share of the free containers, rule v33's case. "+
			"Also tried: keying such jobs in order's level by the work of their tasks not yet placed (SCA's fewest unassigned tasks) as well: the target 55.39 s; for every reduce count heldout47/hetero-reduce-only-slow-third-eight-container-nodes-pack-fair went out (49.64 -> 50.23, ras 47.32), with this cut none went out but heldout60/swim-reduces-kept-noisy-progress-sigma-0.6-eight-segments-lognormal-0.3-noise-containers-fair, behind hadoop, went further behind (349.2 -> 351.4, hadoop 338.1); the key alone 57.90; busy-member sca 57.42; order least-work-first 56.13 (every row). Not replayed under --job-order none or yarn. 0: off, as in rule v61")
	b.Float(&p.ownLostWins, ParamOwnLostWins, 0.1, speculators.In(0, 1, "a share"),
		"share of an exact job's own done copied maps (at least slots-own-copies-lost-copied) a copy won, below which the job on slot pools starts no more map copies (rule v57); futile-copy-wins' 0.1 (rule v8), not fitted")
	b.Int(&p.alikeWonCopied, ParamAlikeWonCopied, 3, speculators.In(1, speculators.MaxJobTasks, "a count"),
		"fewest copied maps over those records for rule v55's reading (alike-busy-copies-won-member); 3 as futileMinCopies (rules v8, v14), chosen over 10 on the target row (45.45 s against 45.71, sda 43.59)")
	b.Bool(&p.boundNoRed, ParamBoundNoRed, true,
		"auto's slot-choosing members (grass, gs, ras, mantri) give no copy to a reduce of a job with an error bound (and no deadline) on containers (rule v64): the pull form (ChooseForSlot) takes no reduce copy, Decide's push form (live) drops the member's reduce copies; the job's reason ends \"an error-bound job's time to its bound counts its maps only: no copy of its reduces (bounded-error-no-reduce-copies)\" the first time. "+
			"The time to an error bound counts the job's maps only (Trimming Stragglers in Approximation Analytics, §5.2: the bound is on the input processed), so a copy of a reduce never brings the job's bound nearer, and it holds a container for the length of a reduce while the other error-bound jobs' maps wait (Xu and Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §III); a reduce's copy phase moves at the pace of the map outputs it fetches, so GRASS's t_rem, extrapolated from it (§5.1), reads it as a straggler (Improving MapReduce Performance in Heterogeneous Environments, §3.2), the more so where copying is most of a reduce's time. Rule v47 holds such copies for exact jobs only while a map runs; an error-bound job's maps are cut at the bound, and its reduces then still copy. "+
			"--job-order exact, 5 seeds, 419 rows (sets 1-63): heldout62/error-erlang-4-bounds-mean-0.08-four-copy-heavy-reduces-lognormal-0.7-maps-containers-fair (32 error-bound jobs of 4 reduces whose time is 0.6 copy, 0.1 sort, 0.3 reduce, lognormal-0.7 maps, fair containers, load about 0.6) 22.25 -> 15.38 s to the bound (mantri 16.22, the best single; hadoop 20.25, grass 21.39): behind hadoop -> in; behind hadoop 13 -> 12, in +1, none out; 17 rows moved, all error-bound rows on containers, 16 faster (heldout47/error-reduces-at-submission-slowstart-0-lognormal-0.7-six-container-nodes-fair 21.01 -> 19.94, heldout41/error-pareto-1.3-reduces-busy-containers-fifo 18.55 -> 17.42), heldout36/error-small-beside-elephant-exact-jobs-fair 17.13 -> 17.15 (mantri 18.07) the one cost. "+
			"Traced at seed 1 under v61: grass on all 32 bounded jobs launched 500 reduce copies (266 before the bound, 234 after) and 155 map copies; container time 20,109 s (hadoop 12,692); the same row with reduces of even phases drew 140 reduce copies and auto reached 15.97 s. Under v64 at seed 1: 174 copies in all, 12,767 container-s, 14.2 s to the bound (v61 18.5, mantri 14.1). "+
			"On Hadoop 1 slot pools left out: a reduce copy there takes a reduce slot no map would use, and with slot pools in the first check heldout44/error-exponential-maps-slots-fifo-0.61 went out (14.25 -> 14.50 s, mantri 13.65), heldout48/error-swim-reduces-kept-erlang-2-noise-slots-fifo cost 69.78 -> 73.23 (in), while heldout38/error-heavy-reduces-slots-fair gained 17.38 -> 15.80 (mantri 15.04, still out by a hair). Only the target replayed under --job-order none (20.55 -> 16.88 s) and yarn (23.14 -> 16.13; hadoop 20.25). Nothing fitted: no threshold. false: rule v61")
	b.Float(&p.boundLostWins, ParamBoundLostW, 0.1, speculators.In(0, 1, "a share"),
		"share of the copied maps won by a copy, pooled over the last 5 bound-copy records (at least 3 copied), below which a job with an error bound runs bounded-copies-lost-member (rule v52); 0.1 as futile-copy-wins (rule v8), not fitted")
	b.Int(&p.boundLostCopied, ParamBoundLostN, 5, speculators.In(1, speculators.MaxJobTasks, "a count"),
		"fewest copied maps over the last 5 bound-copy records for rule v52's reading (bounded-copies-lost-member). "+
			"Fitted, said plainly: at 3 (futileMinCopies) one record of 3 lost copies at seed 4 of heldout36/error-small-beside-elephant-exact-jobs-fair sent 29 of its jobs to none for good (a job that copies nothing writes no record, so the evidence stays), 16.99 -> 18.05 s (mantri 18.07, a hair from behind); from 4 to 10 that row stays at 16.99 and the target at 21.88 s (heldout20/error-tight-job-hangs 43.24 s to 6, 43.70 at 8 and 10); 5, one above the edge")
	b.Float(&p.waves, ParamWaves, 2, speculators.In(0, 1e6, "waves"),
		"waves (the job's tasks over the slots it can hold) at or above which a job with a deadline runs deadline-waves-member (rule v26). "+
			"2 is Guideline 3's line (§3.2: RAS near-optimal beyond two waves, GS below); 5 seeds, 191 rows: at 1, 1.5 and 2 the same one row in (heldout21/deadline-many-waves-speeds 0.9732, 0.9744, 0.9696), none out; 2 moves the other deadline rows least (heldout/deadline-share 0.8844 -> 0.8739, 0.874, 0.8763; grass 0.8452); 0 never")
	b.String(&p.unordMapBusy, ParamUnordMapB, "mantri",
		"map-only-busy-member's place when the cluster does not apply a job order to free slots (JobInfo.JobOrder false: a history's replay and replay --job-order none, live without serve --rm-job-order or under the fair scheduler; rule v21): "+
			"sda led there by its job order (least work first), which then never reaches the slots, and alone it is detection at Xu & Lau's cutoff. "+
			"--job-order none, every policy under it, 5 seeds: tuning/busy-map-only 113.8 s with sda, 90.7 with mantri (mantri alone 91.0, ras 94.1, grass 99.1, hadoop 119.3); heldout3/map-only-hetero-busy 190.5 -> 121.5 (mantri 127.5, grass 149.4); "+
			"ras as this member 94.5 and 145.9, the switch off (grass) 100.1 and 146.3; two other rows moved within their standing (heldout12/tiny-bursts-giants 24.46 -> 24.35 s, heldout5/exponential-map-only-mid 23.53 -> 23.56). Fitted on those two rows; empty: map-only-busy-member whatever the order, as in rules v7-v20")
	b.String(&p.unordBusy, ParamUnordBusy, "hadoop",
		"member for an exact job with reduces on containers placed at a busy fraction of at least unordered-busy-load, after map records that spread at least unordered-busy-sigma, when the cluster does not apply a job order to free slots (JobInfo.JobOrder false, as for unordered-map-only-busy-member; rule v22): "+
			"it stands over the containers, alike, spread, busy and small members, not over tail-member's or futile-member's choice. With no order, a job's copies on a cluster whose originals hold three quarters of the slots take the slots the queued jobs' originals wait for, and hadoop copies least. "+
			"--job-order none, every policy under it, 5 seeds: heldout18/pareto-job-sizes-busy 67.35 -> 65.23 s (ras 64.44, hadoop 65.33), heldout17/two-generations-many-reduces 102.7 -> 99.2 (sda 95.2, hadoop 100.2); cost heldout11/two-tenants-tails 48.2 -> 49.5 (gs 46.7). "+
			"Fitted on those rows; empty: off, as in rules v3-v21")
	b.Float(&p.unordLoad, ParamUnordLoad, 0.75, speculators.In(0, 1, "a load"),
		"busy fraction (as for clone-load) at or above which unordered-busy-member applies (rule v22). "+
			"161 tuned rows under --job-order none, 5 seeds, within 5% of the best single policy and not behind hadoop: 121 under rule v21; 120 at 0.7 (heldout14/weibull-maps, two-tenants-tails and, before the switch was kept off slot pools, heldout19/slots-slow-disk-creep out), 122 at 0.75, 119 at 0.8 (heldout15/few-fat-nodes and two-tenants-tails out, none in); 1 never")
	b.Float(&p.unordSigma, ParamUnordSigma, 0.25, speculators.In(0, 100, "a log spread"),
		"spread of the most recent map records (as for tail-sigma) at or above which unordered-busy-member applies (rule v22): below it are the clusters whose nodes differ while their tasks do not (heldout2/hetero-four-speeds and tuning/hetero-stream-containers read 0.08-0.13 where busy), where the spread member's copies pay: at a load cut of 0.7 and no floor they fell out (150.8 -> 163.1 s, 148.5 -> 164.9), net -7 rows; at 0.2 heldout11/pareto-reduces-busy fell out (53.4 -> 57.5 s, ras 53.1); 0 any")
	b.Bool(&p.busyCopiesAfter, ParamBusyCopies, true,
		"under order "+OrderRemaining+", a job the busy member (sda) runs takes sda's copies level (Xu & Lau's level 1, ahead of every other job) only once its originals are all placed; before that it stays in order's level by its work left (rule v23; simulator and serve --rm-job-order only). "+
			"The level orders a whole job, not its copies alone: a batch job of 160 two-minute maps with a copy waiting took every freed container for its originals ahead of 180 queries of a few seconds "+
			"(heldout22/interactive-beside-long-batch-fair, 5 seeds, --job-order exact: 35.3 -> 18.55 s, the queries 28.7 -> 11.6, hadoop 17.4; sda alone 58.1). "+
			"173 tuned rows under exact, 5 seeds: 153 -> 154 within 5% of the best single policy and not behind hadoop (heldout16/one-slow-node-many-reduces 77.8 -> 76.8 s, sda 73.9, in), none out; "+
			"dropping the level for copies too lost heldout15/few-fat-nodes (141.0 -> 142.4 s, hadoop 142.3). False: the level whenever a copy waits, as in rules v4-v22")
	b.String(&p.mapSpread, ParamMapSpread, "ras",
		"member for an exact map-only job without an a-priori law when earlier exact jobs' maps ran slow on at least spread-share and less than map-only-spread-below of their nodes and their map times spread less than map-only-busy-sigma (rule v12: a few slow nodes among alike ones; "+
			"5 seeds: heldout11/very-slow-nodes-map-only 45.8 -> 41.6 s, ras 41.9); empty: off, as in rule v11")
	b.Float(&p.mapSpreadTo, ParamMapSpreadTo, 0.2, speculators.In(0, 1, "a share"),
		"slow-node share (as for spread-share) at or above which map-only-spread-member does not apply: with a third of the nodes slow (two node speeds, heldout6/hetero-map-only-light, shares 0.23-0.29 at seed 1) or grass-exact's stragglers (0.23-0.39) grass leads, "+
			"and ras as the member was 3.5% (hetero-map-only-light) and 1.7% (grass-exact) slower; heldout11/very-slow-nodes-map-only reads 0.08-0.10")
	b.String(&p.smallBusyMember, ParamSmallBusyM, "ras",
		"member for a small exact job with reduces (at most small-tasks tasks) placed at small-busy-load or above (rule v12; 5 seeds: heldout7/tiny-jobs-pack-mid 39.3 -> 36.2 s, ras 35.4; heldout9/elephants-mice 37.5 -> 37.1, hadoop 37.1; "+
			"grass gave 38.3 and 36.4, gs 40.6 and 36.5); empty: busy-member, as in rules v8-v11")
	b.Bool(&p.idleEvery, ParamIdleEvery, true,
		"a job with reduces is small by the idle slots (small-idle-share) only when none of the most recent records shows slow nodes (each map record's slow share below spread-share, each reduce record's below reduce-spread-share; rule v12): "+
			"SCA clones onto any idle slot, GRASS's pull mode keeps work on the fast nodes (5 seeds: heldout8/big-small-machines 59.8 -> 57.2 s, gs 55.5; heldout10/reduce-stragglers-only 46.6 -> 45.4; cost heldout/failures-mixed 60.9 -> 62.7, sca 60.9); false: the idle slots alone, as in rules v3-v11")
	b.String(&p.mapOrder, ParamMapOrder, MapOrderAll,
		"which exact map-only jobs without an a-priori law are ordered on free slots as order says (rule v13; simulator only): "+MapOrderAll+", "+MapOrderSmall+" (those of at most small-tasks tasks, and those map-only-busy-member runs) or "+OrderNone+" (only those map-only-busy-member runs, as in rules v7-v12). "+
			"An unordered job waits behind every ordered one, and a started giant with reduces in order's level took every free slot before a tiny job's second map (5 seeds: heldout12/tiny-bursts-giants 30.5 -> 23.3 s under either, ras 23.0; under "+MapOrderAll+" also grass-exact 122.5 -> 112.1, heldout11/very-slow-nodes-map-only 41.6 -> 39.8, tuning/busy-map-only 62.9 -> 60.3; cost heldout7/skewed-map-only-mid 82.2 -> 82.8, hadoop 81.4)")
	b.String(&p.boundedOrder, ParamBoundOrder, BoundedFirst,
		"where jobs with a deadline or an error bound go on free slots (rule v13; simulator only): "+BoundedFirst+" (ahead of every ordered job, by work left among their like), "+BoundedLevel+" (in order's one level with the exact jobs) or "+OrderNone+" (unordered: behind every ordered job, as in rules v3-v12). "+
			"5 seeds: heldout12/error-fifth-two-speeds time to bound 42.8 -> 35.4 s (ras 36.7; 39.5 under "+BoundedLevel+"), heldout12/deadline-tenth-loose-busy accuracy 0.9974 -> 1, heldout5/error-bound-busy 104.2 -> 96.0 s, heldout5/deadline-quarter-busy 0.8793 -> 0.9189; of the 17 rows with bounded jobs only heldout8/deadline-crash-map-only fell, 0.9897 -> 0.9891, still ahead of ras 0.9877)")
	b.Bool(&p.deadlineEDF, ParamDeadlineEDF, true,
		"under bounded-order "+BoundedFirst+" (simulator only, as that order is), jobs with a deadline are ordered among themselves by their deadline plus their work left over the slots the job can hold (JobInfo.Slots: the time that work would take on the whole cluster), behind the jobs with an error bound, which keep their work left as the key; false is rule v45, every job with a bound in one level by its work left (rule v46). "+
			"A deadline job needs its slots before its deadline, not its work done soonest: least work first let a stream of smaller deadline jobs pass a larger one that came with them until its deadline cut every map; earliest deadline first meets every deadline any order meets on one resource (Liu & Layland, Scheduling Algorithms for Multiprogramming in a Hard-Real-Time Environment, §7), and GRASS §6.1's deadline-bound jobs each carry their own deadline; the work term keeps least work first among like deadlines, where accuracy is a share of each job's tasks and a small job's task is worth more of it; an error-bound job's measure is a time, which least work first shortens (Optimization for Speculative Execution in Big Data Processing Clusters, §IV-B). "+
			"5 seeds, exact: heldout44/deadline-uniform-maps-pack-alike-0.7-containers-fair accuracy 0.9896 -> 1 (tws and none 0.9981, hadoop 0.9976: behind -> in; at seed 1 bounded-32, 37 maps, placed no map by its deadline behind smaller jobs that came after it, 0 -> 1); heldout23/deadline-quarter-nodes-hang 0.9855 -> 0.9860 (hadoop 0.9862, still behind); time to bound where both kinds of bound run: heldout36/bounded-burst-behind-long-exact-job-fifo 61.2 -> 23.5 s, heldout36/swim-bounded-light-slots-fair 86.1 -> 77.6, heldout10/three-bounds-stream 32.0 -> 30.2; 305 rows: behind hadoop 14 -> 13, in +1, none out. "+
			"Fitted, said plainly: the deadline alone as the key put heldout27/deadline-fixed-slo-spread-sizes-fair (one service level over a 16-fold spread of job sizes, where earliest deadline first is first come first served) behind hadoop, 0.9744 -> 0.9551 (hadoop 0.9703); the work over the slots times 0.5 gave 0.9736, times 1 0.9753, times 2 0.9743, and 1 (no constant) was kept; deadline jobs keyed by deadline in the error-bound jobs' level (keys of two kinds compared) ran three-bounds-stream 32.4 s and swim-bounded-light 79.9, deadline jobs ahead of error-bound jobs 32.4 and 89.9")
	b.Bool(&p.unknownPace, ParamUnknownPace, true,
		"under order "+OrderRemaining+" (simulator only, as that order is), an exact map-only job without an a-priori mean task time (JobInfo.TaskMillis) and with no map done is keyed by its maps left times the mean time its running original maps would take at the pace each kept to its last report (read from a progress of 0.1; LATE's estimate of an attempt's time, Improving MapReduce Performance in Heterogeneous Environments, §4), not by xulau.LawOf's stand-in mean of 1 ms; before any such report, and once a map is done, the key is as before. False is rule v49 (rule v50). "+
			"Order's key is the work left, tasks left times the job's mean task time, a-priori or from its completions (Xu & Lau, Optimization for Speculative Execution in Big Data Processing Clusters, §IV-B and §V-B: levels 2 and 3 by remaining and whole workload, which their model knows). With no law and no map done the mean reads 1 ms, so such a job's key is its count of maps, below that of any job with a map done: a job whose first maps ran took every free slot before the started jobs it came after, until one of its maps ended (at seed 1 of the swim row below, 60-map jobs submitted at 483 and 505 s ran 564 and 431 s, against 127 and 153 with auto's jobs unordered). "+
			"5 seeds, exact (SWIM jobs carry no a-priori law): heldout44/swim-map-only-pack-noise-0.6-one-tenant-containers-fifo 212.0 -> 191.4 s (ras 189.4, hadoop 209.6: behind -> in), heldout32/hetero-swim-speed-continuum-two-confs-fair 257.3 -> 241.7 (ras 243.4, hadoop 256.7: behind -> in), heldout32/overload-swim-bursts-eager-caps-tenant-fair 612.2 -> 580.8 (grass 589.6); 317 rows: behind hadoop 11 -> 9, in +2, 12 rows moved, none out. "+
			"Fitted, said plainly: the map-only gate. For every exact job (reduces too) the overload row went out, 612.2 -> 654.1 (a reduce's time is its shuffle's, which the maps' pace does not tell: LATE §3.2); tried and rejected: a job with a task running and none done held behind every job of known work until a map ended (SLearn's pilot tasks, Jajoo et al., NSDI 2022) ran the rows 182.6, 246.5 and 665.0 (out), map-only only 182.6, 246.3 and 628.3 (out); held behind, new jobs too, 178.1, 266.4 (behind hadoop); held until 2, 4, 8 or 16 maps ran, 186-202, 237-252 and 609-656. No cut or count")
	b.String(&p.failedNodeMember, ParamFailedNodeMember, "sda",
		"member, in a GRASS member's place (gs, ras or grass: rule v6's spread switch, rule v5's tail switch, rule v29's tail-busy member, rule v10's containers member), for an exact job with reduces on containers (not JobInfo.SlotPools) built within failed-node-within-ms of the latest node-failed record with no node-resumed record after it, "+
			"when the last map records ran slow on less than failed-node-slow-below of their nodes (or none is read): from its first decision, and whenever the job would run a GRASS member; the reason ends \"a node was declared failed at Ts, Ds before the job's start, and none reported back since (failed-node-member)\". "+
			"Every job auto runs hands out a node-failed record (speculators.MarkNodeFailed) when the fault analyzer tells it a node was declared failed (NodeFailed), and a node-resumed record (speculators.MarkNodeResumed) when told one is back (NodeResumed); both kept in memory only. Empty: rule v66 (rule v69). "+
			"Why: a node declared failed and not back leaves its mark on the next map records (its maps stalled, read slow on a few of their nodes: 0.14-0.20 on the target, spread 0.53-0.64), which the spread and tail switches read as slow nodes or a heavy tail and answer with GRASS, which copies whenever a copy would finish first or save resources (GRASS §3.1); a failed node's tasks are the failure layer's to copy and re-run (FARMS §3.2), and under fair the GRASS copies took the containers its re-runs and the other jobs waited for (Xu and Lau §III), on 3 fewer nodes. sda backs up a straggler only once it detects one, least work first (Xu and Lau §IV). "+
			"5 seeds, exact: heldout38/fail-long-shuffle-slowstart-hang-crash-fair (one NodeManager hung 200-600 s, one crashed for good at 350 s; fair containers, reduce slow start 0.05, load 0.75) 120.5 -> 105.5 s (farms 103.9, the best single; hadoop 127.9): out (+16.0%) -> in (+1.5%); at seed 1 31 jobs switched (15 grass, 12 ras, 1 gs, 3 later hadoop by rule v27), their copies 685 -> 206, the run 112.1 -> 86.9 s (farms 96.1). 443 rows: in +1, none out, behind hadoop 11 -> 11, 42 rows moved; the largest costs heldout5/hang-two-speeds-reduces 84.64 -> 88.65 (grass 85.83: +3.3%, in), heldout57/fail-job-maps-node-hangs-lognormal-1.0-lengths-straddle-timeout-120s-three-reduces-containers-fifo 44.59 -> 48.26 (in), heldout3/hang-stream 61.85 -> 64.27 (gs 63.53, in), heldout25/cluster-wide-stalls-fair 61.77 -> 62.09 (ras 61.81, hadoop 62.67, in); the largest gains heldout20/rolling-restart 89.86 -> 80.85 and heldout61/fail-job-reduces-node-hangs-reduce-phase-0.7-0.95-normal-lengths-containers-fair 60.37 -> 53.44. "+
			"Fitted, said plainly: the member (with neither bound: sda 104.5 s, late 107.1, hadoop 108.1; with a 60 s down-time bound tried instead: sda 107.6, ese 108.8, hadoop 110.7, late 111.8) and both bounds; a record at any time before the job (no window, no slow bound) sent heldout5/hang-two-speeds-reduces out (92.5, grass 85.83) and heldout25/cluster-wide-stalls-fair behind hadoop (63.52 against 62.67); the node-resumed records alone did not keep heldout5 in (a hang's job often ends before the node is back, and is not told), hence the slow bound; heldout/failures-mixed and tuning/small-crash (crashes 1,200-1,500 s long, jobs an hour apart) went out without the window. Not replayed under --job-order none or yarn")
	b.Int64(&p.failedNodeWithin, ParamFailedNodeWithin, 600000, speculators.NonNegative,
		"ms within which the latest node-failed record must lie before the job's start for failed-node-member (rule v69): YARN's NodeManager expiry (yarn.nm.liveness-monitor.expiry-interval-ms, 600 s), after which the ResourceManager has taken a node that is still silent out of the cluster, and a job started later may run where nothing failed. "+
			"Without it heldout/failures-mixed (jobs an hour apart after a crash at 15 s) went 62.65 -> 71.64 s (sca 60.87: out) and tuning/small-crash 49.49 -> 52.00 (sca 49.49: out); on the six rows tried, 300 s and 600 s differed only on heldout3/hang-stream (62.9 and 64.3 s, gs 63.53, both in)")
	b.Float(&p.failedNodeSlow, ParamFailedNodeSlow, 0.23, speculators.In(0, 1, "a share"),
		"failed-node-member applies only while the last map records ran slow on less than this share of their nodes (rule v69; speculators.TailFit.Slow, as spread-share reads it): a slow group of nodes, a third of them on heldout5/hang-two-speeds-reduces (records at 0.24-0.28), is what GRASS's copies move work off (LATE §4), a failed node's stalled maps read 0.14-0.20 on the target. "+
			"Fitted on those two rows, 5 seeds: 0.2 left the target out (128.2 s), 0.21 117.6 (out), 0.22 108.7 (in by 0.4 s; heldout5 89.82, in by 0.3 s), 0.23 105.5 and 88.6, 0.25 104.8 and 91.7 (heldout5 out), 1 (no bound) 104.5 and 92.1 (out)")
	b.Bool(&p.unknownPrior, ParamUnknownPrior, true,
		"under order "+OrderRemaining+" (simulator only, as that order is), an exact map-only job without an a-priori mean task time (JobInfo.TaskMillis: SWIM jobs, histories), placed when the prior holds a run time of maps (speculators.PriorTaskMean: earlier jobs' completed maps) and no job with reduces was built before it, is keyed, while none of its maps has reported (rule v50's pace) and none is done, by its maps left times that run time, not by xulau.LawOf's stand-in mean of 1 ms; every job with reduces hands out a reduces-built record (speculators.MarkReducesBuilt, kept in memory only) when it is built. The reason adds \"before its maps report, its work read at the prior's 30.0s a map, no job with reduces built before it (map-only-unknown-mean-prior)\". False is rule v64 (rule v65). "+
			"With the stand-in a new job's key was its count of maps (at most 60 on SWIM rows), below that of every job with a map done (maps left times a mean of seconds), so in a burst of arrivals each new job went ahead of the started ones it came after and fair shared the containers among a dozen jobs at once, each job's last maps beside the next jobs' first. Xu and Lau (Optimization for Speculative Execution in Big Data Processing Clusters, §III) take a task's expected time from prior trace data; their levels (§IV-B, §V-B) key a job by its workload, which the prior then estimates. "+
			"5 seeds, exact: heldout63/swim-map-only-compressed-day-0.012-uniform-noise-0.6-1.4-containers-fair 112.8 -> 108.4 s (sca 104.2, sda 106.3, hadoop 131.5: out -> in; every seed faster: 124.7/107.5/97.7/100.1/134.1 -> 119.8/102.0/96.4/97.0/127.0; at seed 1 39 of 40 jobs keyed by the prior, its 20 jobs of 60 maps 181.2 -> 176.7 s, the 20 others 68.3 -> 62.9); 431 rows (sets 1-65): behind hadoop 11 -> 11, in +1, none out, 14 rows moved; every SWIM map-only row faster: heldout44/swim-map-only-pack-noise-0.6-one-tenant-containers-fifo 191.4 -> 179.2 (ras 189.4), heldout51/swim-map-only-empirical-two-value-noise-bad-read-one-in-ten-containers-fair 92.44 -> 85.16, heldout57/swim-map-only-packed-trackers-lognormal-noise-0.5-slots-fifo 116.6 -> 110.6, heldout59/swim-map-only-sjf-sum-three-uniform-noise-0.3-1.8-containers-fifo 111.8 -> 108.7 (sca 107.1), heldout45's, heldout54's, heldout61's and heldout65's swim map-only rows 1-3% faster, grass-exact 108.1 -> 107.0; the costs heldout2/deadline-third accuracy 0.9127 -> 0.9106 (grass 0.8849) and heldout5/deadline-quarter-busy 0.9108 -> 0.9101 (gs 0.8637), in. "+
			"Fitted, said plainly: the reduces gate. Without it (a map-only job of no law keyed by the prior wherever the prior has a run time) heldout60/swim-reduces-kept-noisy-progress-sigma-0.6-eight-segments-lognormal-0.3-noise-containers-fair went behind hadoop (337.3 -> 340.7 s, hadoop 338.1) and heldout32/hetero-swim-speed-continuum-two-confs-fair cost 241.7 -> 250.8; gated on no reduce record in the prior (no job with reduces ended) heldout60 still 338.4, as its jobs with reduces end late. Tried and rejected: a new such job (nothing placed) held in the new jobs' level behind every started job (SDA's and ESE's level 3) took the target to 108.3 but put grass-exact (108.1 -> 181.2 s: small jobs behind a started job of thousands of maps), heldout32/overload-swim-bursts-eager-caps-tenant-fair (580.8 -> 763.0) and heldout49/swim-size-bins-reduces-kept-batch-beside-adhoc-map-only-containers-fifo (220.8 -> 354.9) behind hadoop, 6 rows out; the prior's run time for new jobs only (not for placed jobs whose maps had not reported) left the target at 109.8 (out); the prior read live at each priority rather than at placement broke speculators.PriorityByEvents' promise (it moves with other jobs' ends). The order alone: auto.order least-work-first 107.7 s on the target")
	b.Bool(&p.tasksLeft, ParamTasksLeft, true,
		"under order "+OrderRemaining+" (simulator only, as that order is; --job-order yarn reads it too), an exact job with reduces on Hadoop 1 slot pools (JobInfo.SlotPools) without an a-priori mean task time (JobInfo.TaskMillis: SWIM jobs, histories) is ordered by SCA's levels: once a task of it has started, in the started jobs' level keyed by its count of tasks not done; before that in the new jobs' level, behind every started job, by its tasks times its mean (the 1 ms stand-in until a task ends); the reason at its first placement ends \"no a-priori mean task time: once a task of it started, ahead of every new job by its count of tasks not done (unknown-mean-tasks-left)\" (rule v73). "+
			"Under rule v9's one level by work left such a job is keyed by a mean it does not have: a new job's work reads xulau.LawOf's 1 ms stand-in a task (its key its count of tasks), below every job with a task done (its tasks left times its own mean of seconds), so each new SWIM job went ahead of the started ones and fair shared the map slots among many jobs at once, while their reduces, held on their own slots until every map was done (slow start 1.0), waited; and among started jobs the key read each job's own completions, maps and reduces of very different times. Xu and Lau (Optimization for Speculative Execution in Big Data Processing Clusters, §IV, Algorithm 1 lines 1 and 9) order running jobs by their fewest remaining tasks ahead of new jobs by workload, the order sca runs: on the target sca gives 411.0 s under --job-order exact and 427.1 under none (hadoop 428.2), so its lead is its order, not its 352 clones a seed. "+
			"5 seeds, exact: heldout62/swim-reduces-kept-slowstart-1.0-lognormal-noise-0.3-slots-fair 432.2 -> 425.4 s (sca 411.0, hadoop 428.2: behind hadoop and out -> in, +3.5%; seeds 555.9/420.4/390.2/418.9/375.7 -> 553.2/386.7/383.8/425.1/378.4; under --job-order yarn 431.4 -> 427.6); 467 rows (sets 1-71): behind hadoop 9 -> 8, in +1, none out, 8 rows moved, all SWIM rows with reduces on slot pools: heldout68/swim-reduces-kept-reduce-function-heavy-phases-0.1-0.1-0.8-lognormal-noise-0.45-three-reduce-slot-trackers-slots-fair 422.9 -> 406.5 (gs 409.3), heldout66/swim-reduces-kept-sort-heavy-phases-0.2-0.6-0.2-six-map-slot-trackers-slots-fifo 409.3 -> 399.9, heldout70/swim-reduces-kept-exponential-noise-mean-1-memoryless-shape-1-gamma-slots-fair 287.7 -> 279.7 (grass 279.5); the largest cost heldout52/swim-reduces-kept-slow-heartbeats-10s-slowstart-0.8-slots-fair 413.4 -> 417.4 (hadoop 423.4, in). "+
			"Fitted, said plainly: the slot-pools gate, on one check. On containers too the same order put 6 rows behind hadoop and out (heldout46/swim-reduces-kept-shuffle-heavy-phases-sjf-tenant-containers-fair 372.8 -> 496.5, heldout64/swim-reduces-kept-erlang-3-noise-copy-heavy-phases-0.6-containers-fifo 344.7 -> 438.9, heldout32/overload-swim-bursts-eager-caps-tenant-fair 580.8 -> 757.8, heldout60, heldout53, heldout32/hetero-swim-speed-continuum-two-confs-fair): there a job's reduces take containers from the same pool as every map, and a started job's reduces, placed early (slow start below 1), held them while its maps went first. Tried: the key its tasks never started (sca's own, 428.6 s), its work left at its own mean (433.8), its maps left (585.9), rule v50's pace for such jobs (434.9). false: rule v9's key, as in rule v72")
	b.Bool(&p.failure, ParamFailure, true,
		"run the FARMS failure layer (farms with base none) beside the chosen member: copies of a failed node's tasks, re-runs of lost map outputs (FARMS §3.2)")
	b.Int64(&p.rerunAfter, ParamRerunAfter, 40000, speculators.NonNegative,
		"ms a node must have been declared failed before the failure layer re-runs the maps that completed there (rules v14-v15; farms' rerun-after-ms): a node that stops answering for a while and comes back keeps its outputs, and re-running them took containers from the jobs' own work "+
			"(rule v14, 10 s, 5 seeds: heldout13/network-blips 66.0 -> 54.6 s, farms 65.7, tws 54.9, hadoop 55.2; rule v15, 40 s: heldout14/reduce-hangs-busy, hangs of about 75 s, 123.0 -> 107.0 s, tws 104.5, hadoop 112.0; at 30 s 116.3, 45 s 109.1, 48 s 112.0, 50-60 s 103.2, but from 50 s on farms-10gb reduced at seed 1 fell more than 5% behind tws); the layer's copies of the node's running tasks still start at once, and a node that stays down (a crash) has its outputs re-run 40 s later "+
			"(heldout8/reduce-crash-stream 76.9 -> 80.6 s, farms 84.9; farms-10gb 94.6 -> 95.5, farms 94.0; tws as the layer, with no re-runs, 186.6 on farms-reduce-failure); 10000 restores rule v14; 0: at the first check, as FARMS §3.2 and rules v1-v13; on Hadoop 1 slot pools failure-rerun-after-slots-ms instead")
	b.Int64(&p.rerunAfterSlots, ParamRerunSlots, 10000, speculators.NonNegative,
		"failure-rerun-after-ms for a job on Hadoop 1 slot pools (rule v15; never live, where YARN's containers are one pool), chosen on one row: heldout7/slots-crash-ljf-fifo (crashes of about 300 s, whose outputs are lost; 5 seeds) 104.5 s at 10 s, 109.8 at 40 s, 114.5 at 60 s, farms 105.9: "+
			"the wait only delays re-runs the lost outputs need (13.4 maps a run at 10 s, 10.2 at 40 s); on containers the crash rows paid up to 3.7 s for it; 10000 is rule v14's value, and no other row with failures on slot pools moved between 10 and 60 s")
	b.Bool(&p.rerunNeeded, ParamRerunNeeded, true,
		"on Hadoop 1 slot pools (JobInfo.SlotPools), when the fault analyzer declares a node failed that holds completed map outputs of the job while every reduce of it still copying waits on them (a reduce not started needs every output; a running reduce on another node in its shuffle phase, once every map is done, is copying outputs it lacks, which the shuffle does not name; while maps still run, a shuffling reduce copies each output as its map ends and has the node's, and the switch does not apply; a reduce past its shuffle, or running only on the failed node, is left out), with at least one such reduce, the job's failure layer becomes rule v27's prompt layer, which re-runs a failed node's completed maps at once, not after failure-rerun-after-slots-ms; the reason ends \"node N failed at Ts holding map outputs (K) that R of its reduces have yet to copy, on slot pools: re-run at once (failure-rerun-needed-slots)\"; false is rule v70 (rule v71). "+
			"Why: a crash loses the node's outputs and a hang keeps them, but both go silent alike, and the reduces find a lost output only by fetch failures after the shuffle's read timeout (60-180 s), long after the wait (rules v14-v15 wait so that a hung node's outputs are not re-run; FARMS §3.2 re-runs at once); while every copying reduce waits on the outputs, each second of the wait holds those reduces' slots (Hadoop 1's reduce pool is apart, and FIFO jobs behind wait for it), and a re-run costs one map; where a reduce copies as the maps end (an early slow start, as on the hang rows) it has the node's outputs and the wait stays. "+
			"5 seeds, exact: heldout59/fail-job-maps-tracker-crash-at-map-end-slowstart-1.0-lognormal-down-expiry-120s-three-reduces-slots-fifo (a third of the jobs lose the tracker holding most of their maps at the map phase's end, slow start 1.0) 62.81 -> 55.58 s (farms 58.16, the best single; hadoop 471.8): out (+8.0%) -> in (-4.4%), every seed faster (52.39/73.95/70.86/59.43/57.41 -> 45.13/70.25/64.86/48.85/48.78; 13-32 jobs a seed switched, 109 of 121 with all 3 reduces waiting); heldout41/fail-many-short-reduces-slowstart-1.0-reduce-node-crash-slots-fifo (the tracker running most of a job's reduces crashes in their shuffle) 53.57 -> 46.05 (farms 45.61, hadoop 222): out (+17.5%) -> in (+1.0%), every seed faster (40.18/61.58/48.71/66.98/50.38 -> 37.89/54.31/44.34/50.58/43.15); the hang rows rule v15's wait is for stay in: heldout33/slots-slow-heartbeats-reduce-hangs-sleep-sums-fifo 110.6 -> 111.2 (gs 106.0, +4.9%), heldout37/deadline-fifth-trackers-hang-recover-gamma-slots-fair accuracy 1 -> 0.9983 (hadoop 0.9967). 467 rows (sets 1-71): in +2, none out, behind hadoop 9 -> 9, 20 rows moved, all on slot pools; the largest costs heldout48/fail-job-reduces-tracker-hangs-pareto-lengths-shuffle-slots-fifo 54.77 -> 56.09 (tws 57.13, in), heldout69/fail-job-maps-six-slot-tracker-hangs-late-map-phase-0.6-0.95-triangular-lengths-20-100s-slots-fair 53.44 -> 54.89 (gs 57.53, in), heldout60/fail-random-tracker-hangs-at-map-progress-normal-lengths-mean-60s-three-map-slot-trackers-slots-fifo 40.30 -> 41.79 (tws 47.11, in); the largest gains heldout50/fail-job-reduces-crash-sort-phase-reboot-or-gone-empirical-slowstart-1.0-slots-fair 85.33 -> 80.90, heldout52/fail-random-tracker-crash-during-shuffle-expiry-60s-three-reduces-slots-fifo 44.87 -> 43.39, heldout44/fail-reduce-node-slow-or-hang-late-phase-lognormal-lengths-slots-fair 83.0 -> 81.8, heldout7/slots-crash-ljf-fifo 104.6 -> 103.6. "+
			"Fitted, said plainly: the reading of a shuffling reduce, on these four rows. failure-rerun-after-slots-ms 0 (no signal, auto77) gave 53.67, 46.63, heldout33 114.5 (out) and heldout37 0.9931 (behind hadoop); a reduce read as having copied the first floor(3 x progress x maps) outputs in the order the maps finished: 57.37, 49.41 (out), 112.4 (out) with any reduce waiting, 57.40, 54.15 (out), 111.0 with every reduce waiting (the simulator, as Hadoop, copies outputs in no such order: a reduce stalled on a lost output reads 66 of 67 copied). Not replayed under --job-order none or yarn")
	b.String(&p.detector, ParamDetector, "tws",
		"failure detector the fault analyzer uses for this job (tws, mean or fixed; FARMS §3.3.1), as farms' detector")
	if !b.Ready() {
		return
	}
	if p.order != OrderRemaining && p.order != OrderLeastWork && p.order != OrderNone {
		b.Fail(fmt.Errorf("%s %q: want %s, %s or %s", ParamOrder, p.order, OrderRemaining, OrderLeastWork, OrderNone))
	}
	if p.mapOrder != MapOrderSmall && p.mapOrder != MapOrderAll && p.mapOrder != OrderNone {
		b.Fail(fmt.Errorf("%s %q: want %s, %s or %s", ParamMapOrder, p.mapOrder, MapOrderSmall, MapOrderAll, OrderNone))
	}
	if p.boundedOrder != BoundedFirst && p.boundedOrder != BoundedLevel && p.boundedOrder != OrderNone {
		b.Fail(fmt.Errorf("%s %q: want %s, %s or %s", ParamBoundOrder, p.boundedOrder, BoundedFirst, BoundedLevel, OrderNone))
	}
	p.env = b.Env()
	for i := range p.seeds {
		if p.env.Rand != nil {
			p.seeds[i] = p.env.Rand.Uint64()
		}
	}
	// Build every member once so that a bad name fails at construction,
	// with the parameter named, not at the first job.
	// Every member parameter; off: empty switches it off (the rules that
	// added it restore the rule before them so), else a member is needed.
	for _, m := range []struct {
		param, name string
		off         bool
	}{{ParamBounded, p.bounded, false}, {ParamMapOnly, p.mapOnly, false}, {ParamPareto, p.pareto, false}, {ParamExact, p.exact, false},
		{ParamSmall, p.small, false}, {ParamBusy, p.busyMember, false}, {ParamParetoBusy, p.paretoBusy, false}, {ParamTailMember, p.tailMember, false},
		{ParamSpread, p.spreadMember, false}, {ParamMapBusy, p.mapBusy, false}, {ParamSpreadPool, p.spreadPools, true}, {ParamAlikeBusy, p.alikeBusy, false},
		{ParamFutile, p.futile, false}, {ParamContainers, p.containers, true}, {ParamSlotsAlike, p.slotsAlike, true}, {ParamMapSpread, p.mapSpread, true}, {ParamSmallBusyM, p.smallBusyMember, true},
		{ParamBusySlots, p.busySlots, true}, {ParamAlikeIdle, p.alikeIdle, true}, {ParamSingleTask, p.singleTask, true}, {ParamUnordMapB, p.unordMapBusy, true},
		{ParamUnordBusy, p.unordBusy, true}, {ParamFutileBound, p.futileBound, true}, {ParamFutileRedM, p.futileRedMember, true},
		{ParamWavesMember, p.wavesMember, true}, {ParamBeside, p.besideMember, true}, {ParamErrBeside, p.errBesideMember, true}, {ParamMemoryless, p.memoryless, true}, {ParamLostMember, p.lostMember, true}, {ParamSpreadSlow, p.spreadSlotsSlow, true}, {ParamWeakSlowM, p.weakSlowMember, true},
		{ParamTailBusy, p.tailBusy, true}, {ParamSpreadBusy, p.spreadBusy, true}, {ParamOneReduce, p.oneReduce, true}, {ParamLostPacedM, p.lostPacedMember, false},
		{ParamRedHeavy, p.redHeavy, true}, {ParamWinsMember, p.winsMember, true}, {ParamBoundLostM, p.boundLostMember, true}, {ParamBoundSpreadM, p.boundSpreadMember, true}, {ParamNarrowExact, p.narrowExact, true},
		{ParamAlikeWonMember, p.alikeWonMember, true}, {ParamLimpMember, p.limpMember, true}, {ParamTrackerMember, p.trackerMember, true}, {ParamStrongSlowM, p.strongSlowMember, true}, {ParamSlotsLimpMember, p.slotsLimpMember, true}, {ParamOneRedLimp, p.oneRedLimpMember, true}, {ParamPoolMember, p.poolMember, true}, {ParamNarrowClone, p.narrowClone, true}, {ParamSpreadOnce, p.spreadOnce, true}} {
		if m.name == "" && m.off {
			continue
		}
		if m.name == Name {
			b.Fail(fmt.Errorf("%s %q: auto cannot be its own member", m.param, m.name))
			continue
		}
		if err := p.check(m.name); err != nil {
			b.Fail(fmt.Errorf("%s: %w", m.param, err))
		}
	}
})

// checked holds the members (registry and name) that built with their
// defaults (check). A registered name is never replaced, so a success
// stays one; a failure is not kept.
var checked sync.Map

type checkedMember struct {
	reg  *speculators.Registry
	name string
}

// check reports whether member name builds with its defaults (seed 0, no
// prior), building it only until it first succeeds in the registry: the
// constructor runs once a job, and building two dozen members there only
// to check the parameters was a twentieth of auto's replay of xulau/ese
// (issue 31).
func (p *policy) check(name string) error {
	reg := p.env.Registry
	if reg == nil {
		return fmt.Errorf("%q: no registry to build it from", name)
	}
	key := checkedMember{reg, name}
	if _, ok := checked.Load(key); ok {
		return nil
	}
	if _, _, err := reg.NewWith(name, nil, 0, nil); err != nil {
		return err
	}
	checked.Store(key, struct{}{})
	return nil
}

// build builds one member from the registry.
func (p *policy) build(name string, overrides map[string]string, seed uint64) (speculators.Speculator, error) {
	if p.env.Registry == nil {
		return nil, fmt.Errorf("%q: no registry to build it from", name)
	}
	s, _, err := p.env.Registry.NewWith(name, overrides, seed, p.env.Prior)
	return s, err
}

// Decide is never called on the unfitted policy through an engine (ForJob
// replaces it); a driver that calls it directly gets nothing.
func (p *policy) Decide(_ *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	return out
}

// Detector names the failure detector for the job (see farms.Detector).
func (p *policy) Detector() string { return p.detector }

// Family is which member a job starts with.
type Family uint8

const (
	// Exact: a job with reduces, the exact member (late).
	Exact Family = iota
	// Bounded: a deadline or an error bound, the bounded member (grass).
	Bounded
	// MapOnly: an exact map-only job, the map-only member (grass).
	MapOnly
	// Pareto: an exact map-only job with an a-priori Pareto law, the
	// Pareto member (ras).
	Pareto
)

func (f Family) String() string { return [...]string{"exact", "bounded", "map-only", "pareto"}[f] }

// FamilyOf is the family the rule puts a job in from what is known before
// it runs.
func FamilyOf(info speculators.JobInfo) Family {
	switch {
	case info.Deadline > 0 || info.ErrorBound > 0:
		return Bounded
	case info.Reduces == 0 && info.TailIndex > 1:
		return Pareto
	case info.Reduces == 0:
		return MapOnly
	}
	return Exact
}

var familyWhy = [...]string{
	Exact:   "an exact job with reduces",
	Bounded: "the job has a deadline or an error bound",
	MapOnly: "an exact map-only job",
	Pareto:  "an exact map-only job with an a-priori Pareto law",
}

// ForJob builds the job's members and returns auto fitted to the job: with
// the slot-choosing, job-ordering and cloning interfaces when its members
// have them.
func (p *policy) ForJob(info speculators.JobInfo) speculators.Speculator {
	fam := FamilyOf(info)
	// Rule v47: GRASS members hold back copies of reduces that wait on
	// their maps, for a job without bounds on containers, unless the last
	// map records' times spread at least map-only-busy-sigma or the last
	// reduce records' copies won at least grass-reduce-copies-wins.
	holdReduces := p.redAfter && fam != Bounded && info.Deadline <= 0 && info.ErrorBound <= 0 && !info.SlotPools
	if sigma, n := learnedSigma(p.env.Prior); n > 0 && sigma >= p.mapSigma {
		holdReduces = false
	}
	if w, c := learnedCopyWins(p.env.Prior, true); c >= futileMinCopies && w >= p.redAfterWins {
		holdReduces = false
	}
	a := &fitted{policy: p, family: fam, chosen: -1, boundedAt: -1, wavesAt: -1, heavyRedAt: -1, smallAt: -1, busyAt: -1, tailAt: -1, tailBusyAt: -1, spreadBusyAt: -1, limpAt: -1, unordBusyAt: -1, spreadAt: -1, lostAt: -1, oneRedAt: -1, trackerAt: -1, slotsLimpAt: -1, oneRedLimpAt: -1, poolAt: -1, failedAt: -1, bounded: fam == Bounded, holdReduces: holdReduces, boundNoRed: p.boundNoRed && !info.SlotPools}
	add := func(name string, seed uint64) int {
		if i := a.index(name); i >= 0 {
			return i
		}
		var over map[string]string
		if holdReduces && (name == grass.NameGRASS || name == grass.NameGS || name == grass.NameRAS) {
			over = map[string]string{grass.ParamRedAfterMaps: "true"}
		}
		s, err := p.build(name, over, seed)
		if err != nil {
			// The constructor built every member once already; a member that
			// fails now is a bug. Keep going without it.
			return -1
		}
		a.members = append(a.members, newMember(name, s))
		return len(a.members) - 1
	}
	bounded, boundedWhy := p.boundedMember()
	waves, wavesWhy := "", ""
	if boundedWhy == "" {
		waves, wavesWhy = p.deadlineWavesMember(info)
	}
	if fam == Bounded && info.Deadline > 0 && waves != "" {
		bounded, boundedWhy = waves, wavesWhy
	}
	heavyRed, heavyRedWhy := "", ""
	if boundedWhy == "" {
		heavyRed, heavyRedWhy = p.reduceHeavyMember(info)
	}
	if fam == Bounded && info.Deadline <= 0 && info.ErrorBound > 0 && heavyRed != "" {
		bounded, boundedWhy = heavyRed, heavyRedWhy
	}
	if heavyRed == "" && boundedWhy == "" {
		// Rule v45: an error bound after memoryless-looking map records.
		heavyRed, heavyRedWhy = p.memorylessMember()
		if heavyRed == "" {
			// Rule v48: an error bound after narrow map records.
			heavyRed, heavyRedWhy = p.narrowMember()
		}
		if heavyRed == "" {
			// Rule v48 too: an error bound after map records of a heavy
			// upper half.
			heavyRed, heavyRedWhy = p.heavyUpperMemberFor()
		}
		if heavyRed == "" {
			// Rule v56: no map record, narrow bound-spread records.
			heavyRed, heavyRedWhy = p.boundSpreadNarrowMember()
		}
		if fam == Bounded && info.Deadline <= 0 && info.ErrorBound > 0 && heavyRed != "" {
			bounded, boundedWhy = heavyRed, heavyRedWhy
		}
	}
	if fam == Bounded && info.Deadline <= 0 && info.ErrorBound > 0 {
		// Rule v52: the last error-bound jobs' copies lost.
		if m, why := p.boundCopiesLostMember(); m != "" {
			bounded, boundedWhy = m, why
		}
	}
	first := [...]string{Exact: p.exact, Bounded: bounded, MapOnly: p.mapOnly, Pareto: p.pareto}[fam]
	why := familyWhy[fam]
	if fam == Bounded {
		why += boundedWhy
	}
	if fam == Exact && !info.SlotPools && p.containers != "" {
		// Rule v10: on containers, the first jobs too run what earlier
		// jobs' records most often call for.
		first, why = p.containers, why+" on containers"
	}
	if fam == Exact && info.SlotPools && p.slotsAlike != "" {
		// Rule v49: alike nodes on slot pools, after records.
		if m, jobs := learnedSlow(p.env.Prior); jobs >= alikeMinJobs && m < p.spreadShare {
			if r, _ := learnedReduceSlow(p.env.Prior); p.reduceShare <= 0 || r < p.reduceShare {
				first, why = p.slotsAlike, fmt.Sprintf("%s on slot pools; the last %d map records ran slow on %.2f of their nodes, below %.2f, and their reduces on %.2f (%s)", why, jobs, m, p.spreadShare, r, ParamSlotsAlike)
			}
		}
	}
	a.choose(add(first, p.seeds[fam]), why)
	if info.Reduces > 0 && p.unknownPrior {
		// Rule v65: later map-only jobs know a job with reduces came.
		a.tail = append(a.tail, speculators.TailFit{Deadline: max(info.Start, 1), Mark: speculators.MarkReducesBuilt})
	}
	if info.Deadline > 0 && p.besideMember != "" {
		// Rule v41: later jobs placed before this deadline know of it.
		a.tail = append(a.tail, speculators.TailFit{Deadline: info.Deadline})
	}
	if info.Deadline <= 0 && info.ErrorBound > 0 && p.errBesideMember != "" {
		// Rule v44: later jobs placed while this job is short of its
		// bound know of it.
		a.boundAheadNext = info.Start + boundAheadStep/2
		a.tail = append(a.tail, speculators.TailFit{Deadline: info.Start + boundAheadStep, Mark: speculators.MarkBoundAhead})
	}
	a.killBehind = fam == MapOnly && p.killBehind > 0
	a.ownLost = fam == Exact && info.SlotPools && p.ownLostCopied > 0
	if fam != Bounded {
		// Bounds may come later live (a JobBounds event).
		a.boundedAt, a.boundedWhy = add(bounded, p.seeds[Bounded]), boundedWhy
		if waves != "" {
			// Rule v26: a deadline given later, live, to a job of
			// several waves (an error bound goes to bounded-member).
			a.wavesAt, a.wavesWhy = add(waves, p.seeds[Bounded]), wavesWhy
		}
		if heavyRed != "" {
			// Rule v40: an error bound given later, live, to a job
			// whose reduces outnumber its maps.
			a.heavyRedAt, a.heavyRedWhy = add(heavyRed, p.seeds[Bounded]), heavyRedWhy
		}
	}
	heavy := fam == Pareto && info.TailIndex <= p.cloneTail
	// A job with reduces may be small by the idle slots at its first
	// placement (small-idle-share), so it gets the small member whatever
	// its size.
	byIdle := fam == Exact && p.idleShare > 0
	a.fixedSmall = heavy || p.smallTasks > 0 && info.Maps+info.Reduces <= p.smallTasks
	a.heavy = heavy
	if fam != Bounded && (a.fixedSmall || byIdle) {
		a.smallAt = add(p.small, p.seeds[5])
	}
	if fam == Exact && !info.SlotPools && p.narrowExact != "" && p.narrowExactUpper > 0 {
		// Rule v54: map records of a narrow upper half.
		upper, jobs := learnedUpper(p.env.Prior)
		m, r := learnedMaxSlow(p.env.Prior)
		if jobs >= alikeMinJobs && upper <= p.narrowExactUpper && m < p.spreadShare && (p.reduceShare <= 0 || r < p.reduceShare) {
			a.narrowWhy = fmt.Sprintf("; the last %d map records' upper half spread %.2f, at most %.2f, and no record ran slow on %.2f of its nodes: a copy's gain is bounded (%s)", jobs, upper, p.narrowExactUpper, p.spreadShare, ParamNarrowExact)
		}
	}
	if fam == Exact && p.busyLoad > 0 {
		busy := p.busyMember
		if info.SlotPools && p.busySlots != "" {
			// Rule v19: on slot pools, its own busy member.
			busy = p.busySlots
		}
		rec := p.alikeRecords(p.alikeSigma)
		switch {
		case rec.alike:
			busy = p.alikeBusy
			a.busyWhy = rec.why(p, p.alikeSigma)
			if info.SlotPools && p.alikeWonMember != "" {
				// Rule v55: the nodes look alike by the slow cut, but
				// copies won: a continuum of tracker speeds.
				if wins, copied := learnedCopyWinsOfCopied(p.env.Prior, false); copied >= p.alikeWonCopied && wins >= p.alikeWonShare {
					busy = p.alikeWonMember
					a.busyWhy += fmt.Sprintf("; copies of the last map records won %.2f of %d, at or above %.2f (%s)", wins, copied, p.alikeWonShare, ParamAlikeWonMember)
				}
			}
		case rec.byMeans && !info.SlotPools && p.spreadMember != "":
			// Rule v12: alike by the means, not by the slowest record:
			// slow nodes or faults come and go; on containers the
			// spread member, as if the means had reached the cut.
			busy = p.spreadMember
			a.busyWhy = rec.why(p, p.alikeSigma)
			if p.spreadOnce != "" && (p.reduceShare <= 0 || rec.maxRslow < p.reduceShare) && p.spreadOnceFew(rec.maxSlow) {
				// Rule v62: one slow map record, few slow nodes, copies
				// that won now and then, and reduce records that read
				// no slow node.
				_, reduceRecords := learnedReduceSlow(p.env.Prior)
				if wins, copied := learnedCopyWins(p.env.Prior, false); reduceRecords > 0 && copied >= futileMinCopies && wins >= p.futileWins {
					busy = p.spreadOnce
					a.busyWhy += p.spreadOnceWhy()
				}
			}
		}
		cut := p.busyLoad
		if a.fixedSmall && p.smallBusy < 1 {
			// Rule v8: a small job, from a lower busy fraction, and never
			// the alike member.
			busy, cut, a.busyWhy = p.busyMember, p.smallBusy, fmt.Sprintf("; a small job (%d tasks)", info.Maps+info.Reduces)
			if p.smallBusyMember != "" {
				busy = p.smallBusyMember
			}
			if p.singleTask != "" && info.Maps <= 1 && info.Reduces <= 1 {
				// Rule v20: one task of each kind, no sibling to
				// compare a task with.
				busy, a.busyWhy = p.singleTask, fmt.Sprintf("; %d map and %d reduce: no sibling to compare a task with (%s)", info.Maps, info.Reduces, ParamSingleTask)
				a.singleTaskAt = true
			}
		}
		if a.narrowWhy != "" && busy == p.busyMember {
			// Rule v54: not the busy member's copies either.
			busy = p.narrowExact
			a.busyWhy += a.narrowWhy
		}
		// Rule v63: the alike member's jobs place their reduces with
		// their maps (choosePlaced).
		a.alikeNoWait = p.alikeNoWait > 0 && info.Reduces <= p.alikeNoWait && rec.alike && busy == p.alikeBusy
		a.busyAt, a.busyCut = add(busy, p.seeds[4]), cut
	}
	if fam == Pareto && p.paretoLoad < 1 {
		a.busyAt = add(p.paretoBusy, p.seeds[7])
		a.busyCut = max(p.paretoLoad, xulau.CutoffOmega(info.TailIndex))
	}
	if fam == MapOnly && p.futileWins > 0 {
		// Rule v8: earlier jobs' copies seldom won.
		if wins, copied := learnedCopyWins(p.env.Prior, false); copied >= futileMinCopies && wins < p.futileWins {
			a.choose(add(p.futile, p.seeds[2]), fmt.Sprintf("%s; copies of the last exact jobs' maps won %.2f of %d, below %.2f", familyWhy[fam], wins, copied, p.futileWins))
			a.learnedTail = true
		}
	}
	if fam == MapOnly && p.lostPaced > 0 && !a.learnedTail {
		// Rule v38: earlier jobs' lost copies ran at their originals'
		// pace, the same work redone on nodes no faster.
		if share, lost := learnedLostPaced(p.env.Prior); lost >= futileMinCopies && share >= p.lostPaced {
			sigma, _ := learnedSigma(p.env.Prior)
			if wins, _ := learnedCopyWins(p.env.Prior, false); sigma >= p.mapSigma && wins < p.lostPacedWins {
				a.choose(add(p.lostPacedMember, p.seeds[2]), fmt.Sprintf("%s; %.2f of the last map records' %d lost copies ran at their originals' pace, at least %.2f, their copies won %.2f, below %.2f (%s)",
					familyWhy[fam], share, lost, p.lostPaced, wins, p.lostPacedWins, ParamLostPaced))
				a.learnedTail = true
			}
		}
	}
	futileMaps := false
	if fam == Exact && p.futileReduce > 0 {
		// Rule v14: earlier jobs' reduce copies seldom won (reduce skew: a
		// copy redoes its task's work), nor did their map copies, if any
		// (a crash stream's map copies lose too, but reduce copies that
		// lose beside map copies that win are task noise or clones).
		read, futile, named := learnedCopyWins, p.futile, ""
		if p.futileRedMember != "" && info.JobOrder {
			// Rule v25: a member that copies nothing above the cutoff
			// load, and the evidence read over the records that copied,
			// so that the records of no copies its jobs write do not
			// push it out of the window. Only where the cluster applies
			// the job order: without it the switch cost two rows
			// (--job-order none: heldout12/multi-wave-reduces 148.2 ->
			// 149.4 s, behind hadoop's 149.3; the zipf row 130.8 ->
			// 134.4), and rule v25 is rule v24 there.
			read, futile, named = learnedCopyWinsOfCopied, p.futileRedMember, ", over the last records that copied ("+ParamFutileRedM+")"
		}
		mwins, mcopied := read(p.env.Prior, false)
		if wins, copied := read(p.env.Prior, true); copied >= futileMinCopies && wins < p.futileReduce && (mcopied < futileMinCopies || mwins < p.futileReduce) {
			a.choose(add(futile, p.seeds[2]), fmt.Sprintf("%s; copies of the last jobs' reduces won %.2f of %d and of their maps %.2f of %d, below %.2f%s", familyWhy[fam], wins, copied, mwins, mcopied, p.futileReduce, named))
			a.learnedTail = true
			a.busyAt, a.smallAt = -1, -1
		} else if p.futileMaps > 0 && info.JobOrder && copied < futileMinCopies && mcopied >= p.futileMaps && mwins < p.futileReduce {
			// Rule v32: the map copies lost and no reduce was copied
			// (reduces alike, or too few to judge), so rule v14's
			// evidence never holds: copies that redo their task's own
			// work on alike nodes (data skew) never win, and at a high
			// load each takes a container a queued job's original would
			// use (Xu and Lau, Optimization for Speculative Execution in
			// Big Data Processing Clusters, §III). The same members and
			// window as rule v14 (and v25's reading over the records
			// that copied), the same share; a count of its own: at 3 a
			// record of 4 lost copies (heldout19/iterative-chains-fair,
			// 0.25 spread maps) sent the jobs to sca, whose records of
			// no copies then kept that evidence for good. Choice: 10,
			// fitted between 4 and 20 (at 20,
			// heldout31/overload-split-skew-same-work-pack-fifo ended at
			// 87.4 s, behind hadoop, 79.3 at 10; 5 seeds). It stands
			// over the tail switch (rule v5), which would read the wide
			// map times of data skew as a tail copies can cut. Only where
			// the cluster applies the job order (JobInfo.JobOrder), as
			// rules v25 and v27: under --job-order none its member is
			// hadoop, and tuning/small-crash went out (49.6 -> 54.7 s,
			// sca 49.5); there rule v32 is rule v31.
			a.choose(add(futile, p.seeds[2]), fmt.Sprintf("%s; copies of the last jobs' maps won %.2f of %d (at least %d), below %.2f, and %d of their reduces were copied%s (%s)", familyWhy[fam], mwins, mcopied, p.futileMaps, p.futileReduce, copied, named, ParamFutileMaps))
			a.learnedTail, futileMaps = true, true
			a.busyAt, a.smallAt = -1, -1
		}
	}
	mapSpreadChosen := false
	if fam == MapOnly && p.mapSpread != "" && p.spreadShare > 0 && !a.learnedTail {
		share, jobs := learnedSlow(p.env.Prior)
		if sigma, _ := learnedSigma(p.env.Prior); jobs > 0 && share >= p.spreadShare && share < p.mapSpreadTo && sigma < p.mapSigma {
			a.choose(add(p.mapSpread, p.seeds[3]), fmt.Sprintf("%s; the last %d exact jobs' maps ran at least %.1fx their median on %.2f of their nodes, at least %.2f, and spread %.2f, below %.2f", familyWhy[fam], jobs, slowFactor, share, p.spreadShare, sigma, p.mapSigma))
			mapSpreadChosen = true
		}
	}
	if fam == MapOnly && p.winsMember != "" && p.winsShare > 0 && !a.learnedTail && !mapSpreadChosen {
		// Rule v43: copies that nearly always win (maps on slow nodes
		// copied to fast ones, LATE §5.2; a memoryless law's fresh draw,
		// Xu and Lau §III) pay for their containers even on a busy
		// cluster, so the job runs GS, which copies whenever a copy
		// would finish first (GRASS §3.1), rather than RAS's
		// resource-saving test (grass) or rule v7's detection (sda).
		// It stands over rules v7 and v35 (learnedTail), not over rule
		// v12's spread member nor over rules v8 and v38, whose copies
		// lose.
		if wins, copied := learnedCopyWins(p.env.Prior, false); copied >= futileMinCopies && wins >= p.winsShare {
			a.choose(add(p.winsMember, p.seeds[3]), fmt.Sprintf("%s; copies of the last exact jobs' maps won %.2f of %d, at least %.2f (%s)", familyWhy[fam], wins, copied, p.winsShare, ParamWinsShare))
			a.learnedTail = true
		}
	}
	if fam == MapOnly && p.mapSigma > 0 && p.mapLoad < 1 && !a.learnedTail {
		// Rule v7: a wide spread seen by earlier jobs, busy.
		if sigma, jobs := learnedSigma(p.env.Prior); jobs > 0 && sigma >= p.mapSigma {
			busy, unordered := p.mapBusy, ""
			if !info.JobOrder && p.unordMapBusy != "" {
				// Rule v21: sda's gain there was its order (least work
				// first), which the cluster does not apply.
				busy, unordered = p.unordMapBusy, "; no job order on free slots ("+ParamUnordMapB+")"
			}
			a.busyAt, a.busyCut = add(busy, p.seeds[4]), p.mapLoad
			a.busyWhy = fmt.Sprintf("; the last %d exact jobs' map times spread %.2f, at least %.2f%s", jobs, sigma, p.mapSigma, unordered)
		} else if jobs == 0 && p.mapFirst && info.JobOrder {
			// Rule v35: before any map record the spread is unknown, and
			// rule v7's switch never fired, so on a busy cluster the
			// first jobs (placed before any job finished) ran
			// map-only-member, grass, whose copies take the containers
			// queued originals wait for (Xu and Lau, Optimization for
			// Speculative Execution in Big Data Processing Clusters,
			// §III); above the cutoff load their answer is detection and
			// least work first (§VI), rule v7's member. At a load of 0.9
			// the queue those first jobs left never drained
			// (heldout35/overload-map-only-ljf-same-work-skew-fair: 12
			// grass jobs before the first record at one seed). Choice:
			// rule v7's member and cut (map-only-busy-load), none
			// fitted; a cut of 0.5 moved the same rows further
			// (docs/auto-history.md, rule v35). Only where the cluster
			// applies the job order: without it rule v21 would put
			// mantri in sda's place, untried here, and there rule v35 is
			// rule v34.
			a.busyAt, a.busyCut = add(p.mapBusy, p.seeds[4]), p.mapLoad
			a.busyWhy = fmt.Sprintf("; no map record yet (%s)", ParamMapFirst)
		}
	}
	if fam == Exact && p.tailSigma > 0 && !futileMaps {
		a.tailAt = add(p.tailMember, p.seeds[3])
		if sigma, jobs := learnedSigma(p.env.Prior); jobs > 0 && sigma >= p.tailSigma {
			// Rule v17: not for a wide law without a tail (its upper
			// half much narrower than its lower); the job goes on to
			// the switches below.
			if ratio, ok := learnedUpperRatio(p.env.Prior); !ok || p.tailUpper == 0 || info.SlotPools || ratio >= p.tailUpper {
				a.choose(a.tailAt, fmt.Sprintf("%s; the last %d such jobs' map times spread %.2f, at least %.2f", familyWhy[fam], jobs, sigma, p.tailSigma))
				a.learnedTail = true
				if p.tailBusy != "" && p.busyLoad > 0 {
					// Rule v29: built only for a job the tail switch
					// chose, so no other job's members change.
					a.tailBusyAt = add(p.tailBusy, p.seeds[3])
				}
				if info.SlotPools && p.poolMember != "" && info.Reduces > p.weakSlowReduces && info.Reduces <= p.poolReduces {
					a.poolAt = add(p.poolMember, p.seeds[MapOnly]) // rule v67
				}
			}
		}
	}
	spread, cluster := p.spreadMember, "containers"
	if info.SlotPools {
		spread, cluster = p.spreadPools, "slot pools"
	}
	if fam == Exact && p.spreadShare > 0 && !a.learnedTail && spread != "" {
		// Rule v6: node-speed spread seen by earlier jobs, on containers;
		// rule v7: on slot pools, its own member.
		share, jobs := learnedSlow(p.env.Prior)
		kind, factor := "maps", slowFactor
		cut := p.spreadShare
		if share < cut && p.reduceShare > 0 {
			// Rule v8: nodes slow on reduces count as slow nodes.
			if rshare, rjobs := learnedReduceSlow(p.env.Prior); rjobs > 0 && rshare >= p.reduceShare {
				share, jobs, kind, factor, cut = rshare, rjobs, "reduces", reduceSlowFactor, p.reduceShare
			}
		}
		if jobs > 0 && share >= cut {
			member, named := spread, ""
			if info.SlotPools && p.spreadSlotsSlow != "" {
				// Rule v28: slow nodes on slot pools run RAS, whose
				// resource saving backs up a task on a node much slower
				// than a fresh copy's; ESE's cut is a multiple of the
				// job's mean task time, which many slow nodes raise
				// (heldout26/27's reduce pools: ese 96-97 s, ras 79-89).
				// Choice: only for slow nodes; reduce times that spread
				// on alike nodes (rule v9, below) keep spread-slots-member,
				// where ese led (heldout12/multi-wave-reduces: 125.7 s
				// with ese, 131.0 with ras).
				member, named = p.spreadSlotsSlow, " ("+ParamSpreadSlow+")"
				if p.weakSlowMember != "" && kind == "maps" && share < p.weakSlowShare && info.Reduces <= p.weakSlowReduces {
					// Rule v58: a slow share this small is what a
					// lognormal map law gives alike trackers by chance
					// (one map in six to eleven past 1.5x its median at
					// sigma 0.3-0.4, a tracker's share one to three
					// maps); RAS's copies then gain nothing, and sda
					// detects the real straggler, least work first (Xu &
					// Lau §IV). Map records only: slow reduces (rule v8)
					// keep rule v28's member.
					member, named = p.weakSlowMember, fmt.Sprintf(", below %.2f (%s)", p.weakSlowShare, ParamWeakSlowM)
				}
				if p.strongSlowMember != "" && p.strongSlowShare > 0 && kind == "maps" && share >= p.strongSlowShare && info.Reduces <= p.weakSlowReduces {
					// Rule v66 (a): rule v58's other end. Maps slow on
					// a third of the trackers or more are a slow
					// generation, not chance (alike trackers give 0.07-
					// 0.14, rule v58), and a copy placed on the fast
					// generation finishes first: GS copies whenever it
					// would (GRASS §3.1), RAS only when the copy saves
					// resources (GRASS §3), which a map 2-3x slow barely
					// passes. At most spread-slots-weak-reduces reduces:
					// the job ends with its maps, and a job of more
					// reduces keeps RAS's thrift for the reduce pool.
					member, named = p.strongSlowMember, fmt.Sprintf(", at least %.2f: a slow generation of trackers (%s)", p.strongSlowShare, ParamStrongSlowM)
				}
				if p.poolMember != "" && member == p.spreadSlotsSlow && info.Reduces > p.weakSlowReduces && info.Reduces <= p.poolReduces {
					a.poolAt = add(p.poolMember, p.seeds[MapOnly]) // rule v67
				}
				if kind == "maps" && p.limpMember != "" && p.limpFactor > 0 {
					// Rule v59: built only for a job the spread switch
					// chose on slow trackers (ras, or rule v58's sda);
					// Decide moves the job to it once one of its own
					// maps limps.
					a.limpAt = add(p.limpMember, p.seeds[MapOnly])
					a.lastWaveOn = p.lastWaveRed > 0 && share >= p.lastWaveShare
				}
			}
			if !info.SlotPools && kind == "maps" && jobs >= p.spreadRepeat && p.spreadOnce != "" {
				// Rule v62: slow nodes few and not repeated.
				if m, _ := learnedMaxSlow(p.env.Prior); p.spreadOnceFew(m) {
					member, named = p.spreadOnce, p.spreadOnceWhy()
				}
			}
			a.spreadAt = add(member, p.seeds[MapOnly])
			a.choose(a.spreadAt, fmt.Sprintf("%s on %s; the last %d such jobs' %s ran at least %.1fx their median on %.2f of their nodes, at least %.2f%s", familyWhy[fam], cluster, jobs, kind, factor, share, cut, named))
			a.learnedSpread = true
			if kind == "reduces" && !info.SlotPools && p.spreadBusy != "" {
				// Rule v53: built only for a job the spread switch chose
				// on its reduce records.
				a.spreadBusyAt = add(p.spreadBusy, p.seeds[MapOnly])
			}
		} else if rsigma, rjobs := learnedReduceSigma(p.env.Prior); p.reduceSigma > 0 && rjobs > 0 && rsigma >= p.reduceSigma {
			// Rule v9: a wide spread of the earlier jobs' reduce times.
			a.spreadAt = add(spread, p.seeds[MapOnly])
			a.choose(a.spreadAt, fmt.Sprintf("%s on %s; the last %d such jobs' reduce times spread %.2f, at least %.2f", familyWhy[fam], cluster, rjobs, rsigma, p.reduceSigma))
			a.learnedSpread = true
			if !info.SlotPools && p.spreadBusy != "" {
				a.spreadBusyAt = add(p.spreadBusy, p.seeds[MapOnly])
			}
		}
	}
	ratio, ratios := learnedReduceRatio(p.env.Prior)
	if fam == Exact && info.SlotPools && p.oneReduce != "" && info.Reduces == 1 && info.Maps >= p.oneReduceMaps && !futileMaps &&
		(p.oneReduceRatio <= 0 || ratios < p.oneReduceRecords || ratio >= p.oneReduceRatio) {
		// Rule v37: a job's lone reduce has no sibling to be judged
		// against (Hadoop's speculator and LATE's, Improving MapReduce
		// Performance in Heterogeneous Environments, §3-4, compare a task
		// with its job's other tasks of its kind), and on slot pools
		// (Hadoop runs a fixed number of reduces at once a node, the same
		// paper, §2) its copy takes one of the few reduce slots that other
		// jobs' original reduces queue for: on a busy cluster each copy is
		// a queued job's task not run (Xu and Lau, Optimization for
		// Speculative Execution in Big Data Processing Clusters, §III).
		// The busy fraction the job sees at placement counts both pools
		// together, so a full reduce pool beside idle map slots reads as
		// an idle cluster: the switch cannot wait for a load cut, and
		// stands over every member the rest of the rule gives (busy,
		// small, idle-slot, tail, spread, futile-reduce), not over rule
		// v32's (its evidence reads the job's own kind of copies) nor
		// rule v27's lost output (hadoop too). Choices: hadoop copies
		// least of the members (none: the same row 0.5 s slower, mantri
		// 0.1 s faster, both within the members' random streams); the
		// maps floor, 4, is fitted (docs/auto-history.md, rule v37): a
		// tiny query of one to three maps on an idle cluster gains from
		// sca's clones at launch. Only on slot pools: on containers a
		// reduce copy takes a container maps could use too, and the
		// switch there lost 14 rows. Slot pools are simulator only (live,
		// YARN runs every task in a container of one pool).
		// Rule v39: only while the records say the reduce, not the map
		// phase, is the long part of such jobs (or before enough records
		// say anything): where the reduce is short beside a map phase
		// that a heavy map tail makes long (Reining in the Outliers in
		// Map-Reduce Clusters using Mantri, §2), map copies shorten the
		// job (LATE's copies of slow maps, Improving MapReduce
		// Performance in Heterogeneous Environments, §4), and a short
		// reduce's copy holds its slot briefly.
		records := ""
		if p.oneReduceRatio > 0 {
			records = "; no record of reduce against map times yet"
			if ratios > 0 {
				records = fmt.Sprintf("; the largest of the last %d records' reduce times after the maps is %.1fx their map phase, at least %.1f (%s)", ratios, ratio, p.oneReduceRatio, ParamOneRedRatio)
			}
		}
		a.oneRedAt = add(p.oneReduce, p.seeds[2])
		if p.oneRedLimpMember != "" && p.oneRedLimpFactor > 0 && p.oneReduceRatio > 0 && ratios < p.oneReduceRecords {
			// Rule v72: built only for a job rule v37 took before rule
			// v39's records can speak (the first jobs of a cluster);
			// Decide moves it once one of its own maps limps: a heavy
			// map tail, which the records would have shown.
			a.oneRedLimpAt = add(p.oneRedLimpMember, p.seeds[2])
		}
		if p.trackerMember != "" && p.trackerSplit > 0 {
			// Rule v60: built only for a job rule v37 took; Decide moves
			// the job to it once its own maps say its trackers differ.
			a.trackerAt = add(p.trackerMember, p.seeds[2])
		}
		a.choose(a.oneRedAt, fmt.Sprintf("%s on slot pools; 1 reduce and %d maps, at least %d: no sibling reduce to judge it by, and its copy takes another job's reduce slot (%s)%s", familyWhy[fam], info.Maps, p.oneReduceMaps, ParamOneReduce, records))
		a.fixedSmall = false
		a.busyAt, a.smallAt, a.tailBusyAt = -1, -1, -1
	}
	if fam == Exact && p.alikeIdle != "" && !a.learnedTail && !a.learnedSpread && !info.SlotPools {
		// Rule v20: alike records: copies gain little, and ras copies
		// only when a copy saves resources.
		if rec := p.alikeRecords(p.alikeIdleSigma); rec.alike {
			a.choose(add(p.alikeIdle, p.seeds[2]), familyWhy[fam]+" on containers"+rec.why(p, p.alikeIdleSigma)+": copies gain little ("+ParamAlikeIdle+")")
		}
	}
	if fam == Exact && !info.JobOrder && !info.SlotPools && p.unordBusy != "" && p.unordLoad < 1 && !a.learnedTail {
		// Rule v22: no order to keep a busy cluster's queued jobs ahead
		// of copies, after records whose tasks spread.
		if sigma, jobs := learnedSigma(p.env.Prior); jobs > 0 && sigma >= p.unordSigma {
			a.unordBusyAt = add(p.unordBusy, p.seeds[4])
			a.unordWhy = fmt.Sprintf("; the last %d exact jobs' map times spread %.2f, at least %.2f; no job order on free slots (%s)", jobs, sigma, p.unordSigma, ParamUnordBusy)
		}
	}
	if fam == Exact {
		m, r := learnedMaxSlow(p.env.Prior)
		a.slowSeen = m >= p.spreadShare || p.reduceShare > 0 && r >= p.reduceShare
		// Rule v16: slow nodes read from the mean, as the spread switch
		// reads them.
		slow, _ := learnedSlow(p.env.Prior)
		cut := p.copiesLast
		if info.SlotPools {
			cut = p.copiesLastSlots // rule v17
		}
		a.copiesLast = cut > 0 && slow < cut
		if !a.copiesLast && cut > 0 && p.copiesLastWins > 0 {
			// Rule v42: where copies mostly lost, rule v16 applies on
			// slow nodes too, unless deadline jobs run beside.
			wins, copied := learnedWinsPooled(p.env.Prior, copiesWinsRecords)
			if dl, _ := deadlineAhead(p.env.Prior, info.Start); dl == 0 && copied >= futileMinCopies && wins < p.copiesLastWins {
				a.copiesLast = true
				a.copiesLastWhy = fmt.Sprintf("; copies last: the last map records' copies won %.2f of %d, below %.2f, though their maps ran slow on %.2f of their nodes (%s)", wins, copied, p.copiesLastWins, slow, ParamCopiesWins)
			}
		}
		a.reducesShare = p.reducesWait
		a.reducesIdle = p.reducesIdle
		// Rule v34: on slot pools a waiting reduce frees no map's slot.
		a.reducesPoolsNoWait = info.SlotPools && !p.reducesIdlePools
	}
	if p.narrowClone != "" && p.narrowCloneUpper > 0 && (fam == MapOnly || fam == Exact && info.SlotPools) {
		// Rule v61: map records of a narrow upper half and no slow
		// nodes: a law with no tail (a bounded bell), whose slowest tasks
		// are not far past the median.
		// Detection then copies tasks a copy cannot finish much sooner
		// (LATE §4: no faster node to move to), while each copy holds a
		// slot a queued original would use (Xu & Lau §III); SCA clones a
		// small job's tasks at launch while slots are idle and copies
		// nothing once they are not (Xu & Lau §IV), least work first. On
		// slot pools only for a job whose records say its reduces wait
		// on its maps (rule v39's ratio, or too few records to say): its
		// end is its last map's.
		upper, jobs := learnedUpper(p.env.Prior)
		m, r := learnedMaxSlow(p.env.Prior)
		red, reds := learnedReduceRatio(p.env.Prior)
		waits := fam == MapOnly || p.narrowCloneRatio <= 0 || reds < p.oneReduceRecords || red >= p.narrowCloneRatio
		if waits && jobs >= alikeMinJobs && upper <= p.narrowCloneUpper && m < p.spreadShare && (p.reduceShare <= 0 || r < p.reduceShare) {
			where := ""
			if fam == Exact {
				where = " on slot pools"
				if reds >= p.oneReduceRecords {
					where += fmt.Sprintf("; the largest of the last %d records' reduce times after the maps is %.1fx their map phase, at least %.1f", reds, red, p.narrowCloneRatio)
				} else {
					where += "; no record of reduce against map times yet"
				}
			}
			a.choose(add(p.narrowClone, p.seeds[2]), fmt.Sprintf("%s%s; the last %d map records' upper half spread %.2f, at most %.2f, and no record ran slow on %.2f of its nodes: no tail to detect (%s)",
				familyWhy[fam], where, jobs, upper, p.narrowCloneUpper, p.spreadShare, ParamNarrowClone))
			a.learnedTail = true
			a.busyAt, a.smallAt, a.tailAt, a.tailBusyAt, a.unordBusyAt, a.spreadAt, a.limpAt, a.trackerAt = -1, -1, -1, -1, -1, -1, -1, -1
		}
	}
	if fam == Exact && p.errBesideMember != "" {
		if _, ok := deadlineAhead(p.env.Prior, info.Start); !ok || p.besideMember == "" {
			if _, ok := boundAhead(p.env.Prior, info.Start); ok {
				// Rule v44: a job with an error bound short of it races
				// this one.
				a.choose(add(p.errBesideMember, p.seeds[2]), fmt.Sprintf("%s; a job with an error bound short of it runs beside it (%s)", familyWhy[fam], ParamErrBeside))
				a.learnedTail = true
				a.busyAt, a.smallAt, a.tailAt, a.tailBusyAt, a.unordBusyAt, a.spreadAt = -1, -1, -1, -1, -1, -1
			}
		}
	}
	if fam == Exact && p.besideMember != "" {
		if dl, ok := deadlineAhead(p.env.Prior, info.Start); ok {
			// Rule v41: a job with a deadline races this one.
			a.choose(add(p.besideMember, p.seeds[2]), fmt.Sprintf("%s; a job with a deadline %.1fs ahead of this job's start runs beside it (%s)", familyWhy[fam], float64(dl-info.Start)/1000, ParamBeside))
			a.learnedTail = true
			a.busyAt, a.smallAt, a.tailAt, a.tailBusyAt, a.unordBusyAt, a.spreadAt = -1, -1, -1, -1, -1, -1
		}
	}
	if fam == Exact && info.SlotPools && p.slotsLimpMember != "" && p.slotsLimpFactor > 0 && a.oneRedAt < 0 && !a.learnedTail && info.Reduces <= p.weakSlowReduces {
		// Rule v66 (b): built for a job of few reduces on slot pools;
		// Decide moves it from late or hadoop once one of its maps limps.
		a.slotsLimpAt = add(p.slotsLimpMember, p.seeds[2])
	}
	// Rule v13: small map-only jobs and jobs with a bound are ordered
	// too, or a job in order's level that wants every slot (a giant)
	// holds them all first.
	if fam == Exact && !info.SlotPools && p.failedNodeMember != "" {
		if at, ok := failedBefore(p.env.Prior, info.Start, speculators.Time(p.failedNodeWithin)); ok && a.chosen >= 0 && grassFamily(a.members[a.chosen].name) && learnedSlowBelow(p.env.Prior, p.failedNodeSlow) {
			a.failedAt = add(p.failedNodeMember, p.seeds[2])
			a.failedWhy = fmt.Sprintf("; a node was declared failed at %.1fs, %.1fs before the job's start, and none reported back since (%s)", float64(at)/1000, float64(info.Start-at)/1000, ParamFailedNodeMember)
		}
	}
	if fam == Exact && p.lostMember != "" && info.JobOrder {
		// Rule v27: the member from the job's first lost map output.
		a.lostAt = add(p.lostMember, p.seeds[6])
	}
	mapOrdered := fam == MapOnly && (a.busyAt >= 0 || p.mapOrder == MapOrderAll || p.mapOrder == MapOrderSmall && a.fixedSmall)
	a.ordered = (fam == Exact || fam == Pareto && p.paretoOrder || mapOrdered || fam == Bounded && p.boundedOrder != OrderNone) && p.order != OrderNone
	// Rule v73: an exact job with reduces and no a-priori mean, under
	// order least-remaining-first, by its count of tasks left once started.
	a.tasksLeft = a.ordered && p.tasksLeft && p.order == OrderRemaining && fam == Exact && info.SlotPools && !(info.TaskMillis > 0)
	if a.tasksLeft {
		a.unknownWhy = fmt.Sprintf("; no a-priori mean task time: once a task of it started, ahead of every new job by its count of tasks not done (%s)", ParamTasksLeft)
	}
	a.paceUnknown = a.ordered && p.unknownPace && p.order == OrderRemaining && fam == MapOnly && !(info.TaskMillis > 0)
	if a.paceUnknown {
		// Rule v50: the reason says the key, at the first placement.
		a.unknownWhy = fmt.Sprintf("; no a-priori mean task time: until a map ends, its work left read at its running maps' pace (%s)", ParamUnknownPace)
		if p.unknownPrior {
			// Rule v65: the prior's run time for its maps, where no job
			// with reduces was built before it.
			if _, ok := recordAhead(p.env.Prior, 0, speculators.MarkReducesBuilt); !ok {
				if ms, ok := speculators.PriorTaskMean(p.env.Prior, info); ok {
					a.priorMean = ms
					a.unknownWhy += fmt.Sprintf("; before its maps report, its work read at the prior's %.1fs a map, no job with reduces built before it (%s)", ms/1000, ParamUnknownPrior)
				}
			}
		}
	}
	if a.ordered && fam == Bounded && info.Deadline > 0 && p.boundedOrder == BoundedFirst && p.deadlineEDF {
		// Rule v46: the reason says the order.
		a.why += fmt.Sprintf("; on free slots by its deadline plus its work left over the cluster's slots among jobs with a deadline, behind jobs with an error bound (%s)", ParamDeadlineEDF)
	}
	if p.failure {
		wait := p.rerunAfter
		if info.SlotPools {
			wait = p.rerunAfterSlots // rule v15
		}
		if s, err := p.build("farms", map[string]string{"base": "none", "detector": p.detector, "rerun-after-ms": strconv.FormatInt(wait, 10)}, p.seeds[6]); err == nil {
			l := newMember("farms", s)
			a.layer = &l
		}
		if p.lostMember != "" && wait > 0 && info.Reduces > 0 && info.JobOrder {
			// Rule v27: a second layer that re-runs at once, seeing every
			// event from the start so that its state is current when the
			// job's first lost map output hands it the job. Jobs without
			// reduces have no fetch to lose an output to (their maps
			// write to the file system), and do not pay for it. Only
			// where the cluster applies the job order: without it
			// (--job-order none) the switch put two rows behind hadoop
			// (heldout21/fast-timeouts-long-hangs 107.4 -> 125.5 s, hadoop
			// 123.3; heldout20/rolling-restart 244.8 -> 279.5, hadoop
			// 245.2) and brought none in, and rule v27 is rule v26 there.
			if s, err := p.build("farms", map[string]string{"base": "none", "detector": p.detector, "rerun-after-ms": "0"}, p.seeds[6]); err == nil {
				l := newMember("farms", s)
				a.promptLayer = &l
				a.slotPools = info.SlotPools
				if at, ok := lostBefore(p.env.Prior, info.Start); ok && p.lostRerunAll {
					// Rule v51: a job ran earlier lost a map output.
					a.layer = a.promptLayer
					a.why += lostAllWhy(at)
				}
			}
		}
	}
	if a.bounded && a.ordered && a.anyChooser() {
		// Rule v13: ordered, neither cloned nor held from choosing slots
		// before its first placement, as rules v3-v12 served it.
		return &pullOrderedFitted{&pullFitted{fitted: a}}
	}
	if a.smallAt >= 0 || a.ordered || fam == MapOnly && a.busyAt >= 0 {
		return &fullFitted{a}
	}
	if a.family == Pareto && a.busyAt >= 0 && a.anyChooser() {
		return &pullClonerFitted{&pullFitted{fitted: a}}
	}
	if a.anyChooser() {
		return &pullFitted{fitted: a}
	}
	return a
}

// alikeRecords is what the alike switches read of the most recent records
// (rules v7, v12, v19): alike when at least alikeMinJobs map records spread
// below alike-busy-sigma, every record (or, without alike-every-record,
// their means) shows slow nodes below the cuts, and none of the last
// alike-sigma-records spread at least tail-sigma; byMeans when the means
// are alike and the slowest record or a wide one is not.
type alikeRecords struct {
	alike, byMeans, wide bool
	jobs                 int
	sigma, slow          float64
	maxSlow, maxRslow    float64
}

func (p *policy) alikeRecords(sigmaBelow float64) alikeRecords {
	var r alikeRecords
	r.sigma, r.jobs = learnedSigma(p.env.Prior)
	if r.jobs < alikeMinJobs || r.sigma >= sigmaBelow {
		return r
	}
	rslow, _ := learnedReduceSlow(p.env.Prior)
	rsigma, _ := learnedReduceSigma(p.env.Prior)
	r.slow, _ = learnedSlow(p.env.Prior)
	below := func(slow, rslow float64) bool {
		return slow < p.spreadShare && (p.reduceShare == 0 || rslow < p.reduceShare) && (p.reduceSigma == 0 || rsigma < p.reduceSigma)
	}
	r.maxSlow, r.maxRslow = r.slow, rslow
	if p.alikeEvery {
		// Rule v12: the slowest of the records, not their mean.
		m, rm := learnedMaxSlow(p.env.Prior)
		r.maxSlow, r.maxRslow = max(r.slow, m), max(rslow, rm)
	}
	r.wide = p.alikeWide > 0 && p.tailSigma > 0 && learnedMax(p.env.Prior, false, p.alikeWide, func(f speculators.TailFit) float64 { return f.Sigma }) >= p.tailSigma
	r.alike = below(r.maxSlow, r.maxRslow) && !r.wide
	r.byMeans = !r.alike && below(r.slow, rslow)
	return r
}

// why is the reason's clause for the records.
func (r alikeRecords) why(p *policy, sigmaBelow float64) string {
	switch {
	case r.alike:
		return fmt.Sprintf("; the last %d such jobs' map times spread %.2f, below %.2f, slow on %.2f of their nodes, below %.2f", r.jobs, r.sigma, sigmaBelow, r.slow, p.spreadShare)
	case r.wide:
		return fmt.Sprintf("; the last %d such jobs' map times spread %.2f, below %.2f, but one of the last %d spread at least %.2f", r.jobs, r.sigma, sigmaBelow, p.alikeWide, p.tailSigma)
	}
	return fmt.Sprintf("; the last %d such jobs' map times spread %.2f, below %.2f, but one ran slow on %.2f of its nodes' maps or %.2f of its reduces'", r.jobs, r.sigma, sigmaBelow, r.maxSlow, r.maxRslow)
}

// member is one policy auto may apply, with its optional interfaces.
type member struct {
	name    string
	s       speculators.Speculator
	obs     speculators.Observer
	gate    speculators.NodeGate
	chooser speculators.SlotChooser
	prio    speculators.JobPrioritizer
	cloner  speculators.Cloner
	teacher speculators.Teacher
	prefix  string
}

func newMember(name string, s speculators.Speculator) member {
	m := member{name: name, s: s, prefix: Name + Arrow + name + ": "}
	m.obs, _ = s.(speculators.Observer)
	m.gate, _ = s.(speculators.NodeGate)
	m.chooser, _ = s.(speculators.SlotChooser)
	m.prio, _ = s.(speculators.JobPrioritizer)
	m.cloner, _ = s.(speculators.Cloner)
	m.teacher, _ = s.(speculators.Teacher)
	return m
}

// fitted is auto for one job.
type fitted struct {
	// boundAheadNext is when the job, with an error bound, next hands out
	// a bound record, and boundReached that it reached its bound (rule v44).
	boundAheadNext speculators.Time
	boundReached   bool
	// boundCopied is that the job, with an error bound, handed out its
	// bound-copy record (rule v52).
	boundCopied bool
	// boundSpread is that the job, with an error bound, handed out its
	// bound-spread record (rule v56).
	boundSpread bool
	holdReduces bool // rule v47 applies to the job's GRASS members
	boundNoRed  bool // rule v64: no reduce copy for an error-bound job on containers
	redNamed    bool // the reason names rule v47 (a reduce waited on the maps)
	noRedNamed  bool // the reason names rule v64 (a reduce copy held back)
	// limpAt is rule v59's member, -1 when the switch does not
	// apply.
	limpAt int
	// lastWaveOn: rule v68 may move the job (the spread switch's share at
	// least spread-slots-last-wave-share).
	lastWaveOn bool
	// maps keeps rules v57 and v59's reading of the job's maps between
	// Decides (mapsKept; nil until one of them reads it).
	maps *mapsKept
	*policy
	family  Family
	members []member
	layer   *member
	chosen  int
	why     string
	// boundedAt, smallAt and busyAt index the bounded, small and busy
	// members (-1: none).
	boundedAt, smallAt, busyAt int
	// mean is the job's mean task time for the job order (tail index 2).
	mean xulau.MeanMemo
	// boundedWhy is what rule v24 adds to the bounded member's reason.
	boundedWhy string
	// wavesAt indexes deadline-waves-member for a job that may be given a
	// deadline later (live), and wavesWhy is what rule v26 adds to its
	// reason; -1 when the switch does not apply.
	wavesAt int
	// heavyRedAt indexes bounded-reduce-heavy-member for a job that may
	// be given an error bound later (live), and heavyRedWhy is what rule
	// v40 adds to its reason; -1 when the switch does not apply.
	heavyRedAt  int
	heavyRedWhy string
	// lostAt indexes lost-output-member (-1: none; rule v27): an exact
	// job runs it from its first lost map output; promptLayer is the
	// failure layer that re-runs at once, the job's layer from then on
	// (nil: none); lostSeen: the job has lost a map output.
	lostAt      int
	promptLayer *member
	// slotPools: the job runs on Hadoop 1 slot pools (rule v71).
	slotPools bool
	lostSeen  bool
	// fetchFailed marks the maps a reducer reported it could not fetch,
	// and lostRecorded that the job handed out its lost-output record
	// (rule v51).
	fetchFailed  []bool
	lostRecorded bool
	// killBehind (rule v36): the job kills copies of maps that would
	// finish no sooner than their originals; killed holds the copies it
	// asked to kill, so that a Decide before the kill is reported does
	// not ask again.
	killBehind bool
	// ownLost: rule v57 reads the job's own copies (slot pools, exact);
	// ownLostOn: they lost, and the reason says so.
	ownLost, ownLostOn bool
	killed             map[speculators.AttemptID]bool
	wavesWhy           string
	// busyCut is the busy fraction at or above which the job moves to
	// the busy member (busy-load; for a Pareto job, pareto-busy-load or
	// omega_U of its tail index, the larger; for a map-only job,
	// map-only-busy-load). busyWhy is added to the reason.
	busyCut float64
	busyWhy string
	// singleTaskAt says busyAt is single-task-member's (rule v20); rule
	// v70 runs it below clone-load too once the clones running use up
	// single-task-clone-budget of the slots.
	singleTaskAt bool
	// alikeNoWait (rule v63): the busy member is rule v7's alike member,
	// and a job that runs it keeps no rule v33 wait.
	alikeNoWait bool
	// narrowWhy is rule v54's clause of the reason; empty when its
	// records do not hold.
	narrowWhy string
	// unordWhy is unordered-busy-member's clause of the reason (rule v22).
	unordWhy string
	// ordered: the job is ordered least work first on free slots.
	ordered bool
	// bounded: the job has a deadline or an error bound (from JobInfo or
	// a JobBounds event) and runs the bounded member for good.
	bounded bool
	// placed: the small-job choice was made.
	placed bool
	// fixedSmall: small by its size (small-tasks) or its a-priori tail,
	// whatever the idle slots.
	fixedSmall bool
	// heavy: small by its a-priori tail (clone-tail), not by its size.
	heavy bool
	// switches counts member changes after the first choice.
	switches int
	offered  bool
	// tailAt indexes the tail member (-1: none); learnedTail: the job
	// runs it from the start, by earlier jobs' spread (rule v5).
	tailAt int
	// tailBusyAt indexes tail-busy-member (-1: none; rule v29).
	tailBusyAt int
	// spreadBusyAt indexes spread-busy-member (-1: none; rule v53).
	spreadBusyAt int
	learnedTail  bool
	// unordBusyAt indexes unordered-busy-member (-1: none; rule v22):
	// the job runs it if its first placement finds the cluster at least
	// unordered-busy-load busy.
	unordBusyAt int
	// spreadAt indexes the spread member (-1: none); learnedSpread: the
	// job runs it from the start, by earlier jobs' slow nodes (rule v6).
	spreadAt      int
	learnedSpread bool
	// taught: the job's own map-time spread was fitted (once, when its
	// last map finished); tail holds it until TakeLearned hands it out.
	taught bool
	tail   []speculators.TailFit
	// taughtReduces: the job's reduce record was fitted (rule v8).
	taughtReduces bool
	// slowSeen: one of the most recent records shows slow nodes, on maps
	// or reduces (rule v12, small-idle-every-record).
	slowSeen bool
	// copiesLast: once its originals are placed the job's copies wait
	// behind other jobs' originals (rule v16, copies-last-below).
	copiesLast bool
	// copiesLastWhy is rule v42's clause of the reason, added at the
	// job's first placement.
	copiesLastWhy string
	// reducesShare is reduces-after-maps-share for an exact job, 0
	// otherwise; reducesWait, set at the first placement: the job's reduces
	// are at least that share of the cluster's slots, and while its maps
	// run and it has reduces to place it waits behind other jobs'
	// originals (rule v18).
	reducesShare float64
	reducesWait  bool
	// reducesIdle is reduces-after-maps-idle-share for an exact job, 0
	// otherwise; reducesIdleWait, set at the first placement: the job's
	// reduces are at least that share of the idle slots (and not rule
	// v18's share of the cluster's), and it waits as rule v18's jobs do
	// while more than reduces-after-maps-running-per-reduce of its maps a
	// reduce run (rule v33).
	reducesIdle     float64
	reducesIdleWait bool
	// reducesPoolsNoWait: the job is on slot pools and rule v34 keeps
	// rule v33's wait off.
	reducesPoolsNoWait bool
	// paceUnknown (rule v50): the job is an exact map-only job without an
	// a-priori mean task time, ordered least work first; until a map ends
	// its work left is read at its running maps' pace (paceMean).
	// unknownWhy is the rule's clause of the reason, added at the first
	// placement.
	paceUnknown bool
	// tasksLeft (rule v73): order the job by its count of tasks left.
	tasksLeft bool
	// priorMean (rule v65): the prior's run time of the job's maps (ms)
	// at its placement, the stand-in mean before its maps report (0:
	// none).
	priorMean  float64
	unknownWhy string
	// oneRedAt indexes slots-one-reduce-member when rule v37 chose it, and
	// trackerAt slots-one-reduce-tracker-member (-1: none; rule v60);
	// trackerRead: the job's trackers were read (once).
	oneRedAt, trackerAt int
	// slotsLimpAt slots-limping-member (-1: none; rule v66).
	slotsLimpAt int
	// oneRedLimpAt slots-one-reduce-limping-member (-1: none; rule v72).
	oneRedLimpAt int
	// poolAt spread-slots-reduce-pool-member (-1: none; rule v67).
	poolAt int
	// failedAt indexes failed-node-member (-1: none; rule v69), and
	// failedWhy is what the reason adds when the job moves to it.
	failedAt    int
	failedWhy   string
	trackerRead bool
}

// Member names the member whose decisions go out now ("" before the first
// choice).
func (a *fitted) Member() string {
	if a.chosen < 0 {
		return ""
	}
	return a.members[a.chosen].name
}

// Why says why the member was chosen.
func (a *fitted) Why() string { return a.why }

// Family is the job's family.
func (a *fitted) Family() Family { return a.family }

func (a *fitted) choose(i int, why string) {
	if a.chosen >= 0 && a.chosen != i {
		a.switches++
	}
	a.chosen, a.why = i, why
}

func (a *fitted) index(name string) int {
	for i, m := range a.members {
		if m.name == name {
			return i
		}
	}
	return -1
}

func (a *fitted) anyChooser() bool {
	for _, m := range a.members {
		if m.chooser != nil {
			return true
		}
	}
	return false
}

// Observe lets every member, and the failure layer, see the event; a
// JobBounds event that sets bounds moves an exact job to the bounded
// member.
func (a *fitted) Observe(job *speculators.Job, ev *speculators.Event) {
	if a.maps != nil && ev.Attempt.Task.Type == speculators.Map {
		a.maps.update(job, int(ev.Attempt.Task.Index))
	}
	for i := range a.members {
		if o := a.members[i].obs; o != nil {
			o.Observe(job, ev)
		}
	}
	if a.layer != nil && a.layer.obs != nil {
		a.layer.obs.Observe(job, ev)
	}
	if a.promptLayer != nil && a.promptLayer.obs != nil {
		a.promptLayer.obs.Observe(job, ev)
	}
	if a.failedNodeMember != "" && (ev.Kind == speculators.NodeFailed || ev.Kind == speculators.NodeResumed) {
		// Rule v69: later jobs know a node was declared failed, or back.
		mark := speculators.MarkNodeFailed
		if ev.Kind == speculators.NodeResumed {
			mark = speculators.MarkNodeResumed
		}
		a.tail = append(a.tail, speculators.TailFit{Deadline: max(ev.Time, 1), Mark: mark})
	}
	if ev.Kind == speculators.NodeFailed && a.lostRerunAll && a.promptLayer != nil && a.layer != a.promptLayer {
		if at, ok := lostBefore(a.env.Prior, ev.Time); ok {
			// Rule v51: another job lost a map output before this
			// node failed; the prompt layer has seen every event.
			a.layer = a.promptLayer
			a.why += lostAllWhy(at)
		}
	}
	if ev.Kind == speculators.NodeFailed && a.rerunNeeded && a.slotPools && a.promptLayer != nil && a.layer != a.promptLayer {
		if outs, reds := outputsNeeded(job, ev.Node); outs > 0 {
			// Rule v71: the job's reduces have yet to copy outputs the
			// failed node holds; on slot pools they hold their slots
			// waiting for them.
			a.layer = a.promptLayer
			a.why += fmt.Sprintf("; node %s failed at %.1fs holding map outputs (%d) that %d of its reduces have yet to copy, on slot pools: re-run at once (%s)", ev.Node, float64(ev.Time)/1000, outs, reds, ParamRerunNeeded)
		}
	}
	if a.lostRerunAll && a.promptLayer != nil && !a.lostRecorded {
		if ev.Kind == speculators.AttemptStatus {
			for _, id := range ev.FetchFailedMaps {
				if id.Type == speculators.Map && int(id.Index) < len(job.Tasks[speculators.Map]) {
					a.fetchFailed = speculators.Grow(a.fetchFailed, len(job.Tasks[speculators.Map]))
					a.fetchFailed[id.Index] = true
				}
			}
		} else if lostOutput(job, ev) && int(ev.Attempt.Task.Index) < len(a.fetchFailed) && a.fetchFailed[ev.Attempt.Task.Index] {
			// Rule v51: a reducer could not fetch the output and it was
			// lost: the cluster's failures take outputs with them. Later
			// jobs, and running ones at their next node failure, re-run
			// a failed node's outputs at once.
			a.lostRecorded = true
			a.tail = append(a.tail, speculators.TailFit{Deadline: max(ev.Time, 1), Mark: speculators.MarkOutputLost})
		}
	}
	if !a.lostSeen && lostOutput(job, ev) {
		// Rule v27: the node's outputs are gone, not held by a node that
		// hangs and comes back: the failure layer re-runs them at once,
		// and an exact job leaves the member it ran for lost-output-member.
		a.lostSeen = true
		if a.promptLayer != nil {
			a.layer = a.promptLayer
		}
		if a.lostAt >= 0 && !a.bounded && a.chosen != a.lostAt {
			a.choose(a.lostAt, a.why+"; then a map output was lost ("+ParamLostMember+")")
		}
	}
	if ev.Kind == speculators.AttemptSucceeded && (a.family == Exact || a.family == MapOnly) && !a.taught && !a.bounded &&
		ev.Attempt.Task.Type == speculators.Map && job.Completed[speculators.Map] >= len(job.Tasks[speculators.Map]) {
		a.taught = true
		if f, ok := FitTail(job, ev.Time); ok {
			a.tail = append(a.tail, f)
		}
	}
	if ev.Kind == speculators.AttemptSucceeded && a.family == Exact && !a.taughtReduces && !a.bounded &&
		ev.Attempt.Task.Type == speculators.Reduce && job.Completed[speculators.Reduce] >= len(job.Tasks[speculators.Reduce]) {
		a.taughtReduces = true
		ratio, ratioOK := ReduceRatio(job)
		if f, ok := FitReduces(job, ev.Time); ok {
			if ratioOK {
				f.ReduceRatio = ratio
			}
			a.tail = append(a.tail, f)
		} else if ratioOK {
			// Rule v39: a job of too few reduces for a reduce record
			// leaves its ratio of reduce to map times alone.
			a.tail = append(a.tail, speculators.TailFit{Reduces: min(len(job.Tasks[speculators.Reduce]), speculators.RatioOnlyReduces-1), ReduceRatio: ratio})
		}
	}
	if a.boundLostMember != "" && job.Deadline <= 0 && job.ErrorBound > 0 && !a.boundCopied {
		// Rule v52: at its bound, the job's record of its copies.
		if maps := len(job.Tasks[speculators.Map]); maps > 0 && float64(job.Completed[speculators.Map]) >= (1-job.ErrorBound)*float64(maps) {
			a.boundCopied = true
			if copied, won := doneCopyWins(job, speculators.Map); copied > 0 {
				a.tail = append(a.tail, speculators.TailFit{Deadline: max(ev.Time, 1), Mark: speculators.MarkBoundCopies, Copied: copied, CopyWins: won})
			}
		}
	}
	if a.boundSpreadMember != "" && job.Deadline <= 0 && job.ErrorBound > 0 && !a.boundSpread {
		// Rule v56: at its bound, the job's reading of its maps' spread
		// (it drops its last maps and hands out no map record).
		if maps := len(job.Tasks[speculators.Map]); maps > 0 && float64(job.Completed[speculators.Map]) >= (1-job.ErrorBound)*float64(maps) {
			a.boundSpread = true
			if f, ok := FitTail(job, ev.Time); ok {
				a.tail = append(a.tail, speculators.TailFit{Deadline: max(ev.Time, 1), Mark: speculators.MarkBoundSpread, Maps: f.Maps, Sigma: f.Sigma, Upper: f.Upper})
			}
		}
	}
	if a.errBesideMember != "" && job.Deadline <= 0 && job.ErrorBound > 0 && ev.Time >= a.boundAheadNext && !a.boundReached {
		// Rule v44: while the job is short of its bound, a record a few
		// seconds ahead.
		if maps := len(job.Tasks[speculators.Map]); maps > 0 && float64(job.Completed[speculators.Map]) >= (1-job.ErrorBound)*float64(maps) {
			a.boundReached = true
		} else {
			a.boundAheadNext = ev.Time + boundAheadStep/2
			a.tail = append(a.tail, speculators.TailFit{Deadline: ev.Time + boundAheadStep, Mark: speculators.MarkBoundAhead})
		}
	}
	if ev.Kind == speculators.JobBounds && a.boundedAt >= 0 && !a.bounded && (job.Deadline > 0 || job.ErrorBound > 0) {
		a.bounded = true
		if job.Deadline > 0 && a.besideMember != "" {
			// Rule v41: a deadline given later, live.
			a.tail = append(a.tail, speculators.TailFit{Deadline: job.Deadline})
		}
		if a.wavesAt >= 0 && job.Deadline > 0 {
			a.choose(a.wavesAt, "the job was given a deadline"+a.wavesWhy)
			return
		}
		if a.heavyRedAt >= 0 && job.Deadline <= 0 && job.ErrorBound > 0 {
			a.choose(a.heavyRedAt, "the job was given an error bound"+a.heavyRedWhy)
			return
		}
		a.choose(a.boundedAt, "the job was given a deadline or an error bound"+a.boundedWhy)
	}
}

// nameReducesHeld names rule v47 in the job's reason the first time its
// GRASS member (grass, gs, ras) holds back a copy of a reduce because it
// waits on the job's maps (grass.WaitsOnMaps): the member asks for no copy
// then, so no decision carries the rule.
//
// Rule v47 (grass-reduce-copies-after-maps). GRASS prices a copy by t_new
// against t_rem (Trimming Stragglers in Approximation Analytics, §3.1,
// §5.1). A reduce in its copy phase fetches the maps' outputs as they end,
// so while maps run its progress moves at their pace, and t_rem,
// extrapolated from it, reads it as a straggler; a reduce's t_new, before
// the job's first reduce ends, is earlier jobs' reduces' (grass's
// estimate.go), which may be another kind of job's. GS's test then holds
// for a waiting reduce at every free slot, again for its copy (which waits
// on the same maps and reads as slow too), and each copy holds a container
// for as long as the maps run: the copy phase is bound by the maps, not by
// the reduce (Improving MapReduce Performance in Heterogeneous
// Environments, §3.2). A reduce that has copied less than the maps done
// is slow on its own account, and GRASS's test stands for it. Both read the
// job's own maps and the reduce's reported phase and progress, the same
// live and in replay.
func (a *fitted) nameReducesHeld(job *speculators.Job) {
	live := job.Live[speculators.Reduce]
	for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
		if t := job.Tasks[speculators.Reduce][i]; grass.WaitsOnMaps(job, t) {
			a.redNamed = true
			a.why += fmt.Sprintf("; a reduce waits on its maps (%d of %d done): no copy of it until they are (%s)", job.Completed[speculators.Map], len(job.Tasks[speculators.Map]), ParamRedAfter)
			return
		}
	}
}

// lostOutput reports whether ev reports a map output lost: a succeeded
// map attempt failed or killed afterwards (the job has applied the event,
// so its task counts the loss).
// outputsNeeded counts the job's completed maps whose output is on node,
// and the reduces still copying that wait on them (rule v71); both are 0
// unless every reduce still copying does. A reduce not started needs every
// output. A running reduce on another node in its shuffle phase copies
// each output as its map ends, so while maps still run it has the node's
// outputs so far and does not wait on them; once every map is done it is
// copying the outputs it lacks, which the shuffle does not name (it
// fetches from the maps' hosts in any order), and counts as waiting. A
// reduce past its shuffle, or running only on the node itself, is left out.
func outputsNeeded(job *speculators.Job, node speculators.NodeID) (outs, reds int) {
	maps := job.Tasks[speculators.Map]
	done := 0
	for _, t := range maps {
		if t.Succeeded == nil || t.Dropped {
			continue
		}
		done++
		if t.Succeeded.Node == node {
			outs++
		}
	}
	if outs == 0 {
		return 0, 0
	}
	mapsDone := done >= len(maps)
	for _, t := range job.Tasks[speculators.Reduce] {
		if t.Done() || t.Dropped {
			continue
		}
		if t.RunningAttempts == 0 {
			reds++
			continue
		}
		copying := false
		for _, at := range t.Attempts {
			if at.Running() && at.Node != node && at.Phase <= speculators.PhaseShuffle {
				copying = true
			}
		}
		if !copying {
			continue
		}
		if !mapsDone {
			return 0, 0 // it keeps pace with the maps: not every reduce waits
		}
		reds++
	}
	if reds == 0 {
		return 0, 0
	}
	return outs, reds
}

func lostOutput(job *speculators.Job, ev *speculators.Event) bool {
	if (ev.Kind != speculators.AttemptFailed && ev.Kind != speculators.AttemptKilled) || ev.Attempt.Task.Type != speculators.Map {
		return false
	}
	t := job.Task(ev.Attempt.Task)
	return t != nil && t.OutputLost > 0
}

// choosePlaced, once, when the job's first task is placed, moves a small
// job to the small member if the cluster is lightly loaded: its busy
// fraction (Slots - Idle - SpeculativeRunning)/Slots (the simulator's ClusterView, or live
// xulau.LiveView from the ResourceManager's capacity) below clone-load,
// and an exact job with reduces to the busy member if that fraction is at
// least busy-load.
// Choice: the busy fraction stands for the offered load omega of Xu and
// Lau §III (in a stable cluster they are equal), because a policy sees no
// arrival rate of its own.
func (a *fitted) choosePlaced(job *speculators.Job, view speculators.ClusterView, now speculators.Time) {
	if a.placed {
		return
	}
	a.placed = true
	if a.copiesLastWhy != "" {
		defer func() { a.why += a.copiesLastWhy }() // rule v42
	}
	if a.unknownWhy != "" {
		defer func() { a.why += a.unknownWhy }() // rule v50
	}
	if reduces := len(job.Tasks[speculators.Reduce]); a.reducesShare > 0 && reduces > 0 && view.Slots > 0 {
		a.reducesWait = float64(reduces) >= a.reducesShare*float64(view.Slots) // rule v18
	}
	if reduces := len(job.Tasks[speculators.Reduce]); !a.reducesWait && a.reducesIdle > 0 && reduces > 0 && view.Slots > 0 &&
		float64(reduces) >= a.reducesIdle*float64(view.Idle) {
		if a.reducesPoolsNoWait {
			// Rule v34: rule v33's wait is for a reduce that holds a
			// container a queued job's map would use. On slot pools (MRv1's
			// map and reduce slots: Hadoop runs a fixed number of maps and of
			// reduces at once on each node, two of each by default, as LATE,
			// Improving MapReduce Performance in Heterogeneous Environments,
			// §2, describes it) a reduce holds a reduce slot, which no map can
			// take: waiting frees nothing for the maps and only delays the
			// copy's overlap with the job's last maps. The job does not wait;
			// the reason says so. The switch reads JobInfo.SlotPools, which
			// only the simulator sets (live, YARN runs every task in a
			// container of one pool); rule v33's tier is simulator only too.
			defer func() {
				a.why = fmt.Sprintf("%s; %d reduces, at least %.2f of %d idle slots, on slot pools: no wait (%s)", a.why, reduces, a.reducesIdle, view.Idle, ParamReducesPool)
			}()
		} else {
			// Rule v33: rule v18's wait, read against the slots free at the
			// job's first placement rather than the cluster's. A reduce placed
			// while its job's maps run holds its container in the copy phase,
			// which ends only with the job's last map (LATE, Improving
			// MapReduce Performance in Heterogeneous Environments, §3.2);
			// order's level, Xu and Lau's least remaining work first
			// (Optimization for Speculative Execution in Big Data Processing
			// Clusters, §IV-B and §V-B, after SRPT), lifts the job with least
			// work left as if every slot it takes served its work. What such
			// reduces take is taken from the free slots: on a busy cluster a
			// few reduces a job are a large share of them, each a queued job's
			// map not run. Choice: the share is rule v18's 0.3, not a cut of
			// its own; the wait ends once at most running-per-reduce maps a
			// reduce run (JobPriority), where the copy overlaps the job's last
			// maps: waiting to the last map, as rule v18 does, put 16 rows out.
			// The bound, 6, is fitted (docs/auto-history.md, rule v33).
			a.reducesWait, a.reducesIdleWait = true, true
			defer func() {
				if a.alikeNoWait && a.chosen == a.busyAt {
					// Rule v63: on the alike member (SCA above its cutoff
					// load) a reduce is one of the job's tasks to place,
					// as SCA's order has it; it does not wait.
					a.reducesWait, a.reducesIdleWait = false, false
					a.why = fmt.Sprintf("%s; %d reduces, at least %.2f of %d idle slots, on the alike member: no wait (%s)", a.why, reduces, a.reducesIdle, view.Idle, ParamAlikeNoWait)
					return
				}
				a.why = fmt.Sprintf("%s; %d reduces, at least %.2f of %d idle slots, wait while more than %d maps a reduce run (%s)", a.why, reduces, a.reducesIdle, view.Idle, a.policy.reducesRunning, ParamReducesIdle)
			}()
		}
	}
	red := -1.0
	if a.policy.poolMember != "" && view.ReduceSlots > 0 {
		// Rule v67: every placement on slot pools hands out a record of
		// its reduce pool's busy fraction.
		red = 1 - float64(view.ReduceIdle)/float64(view.ReduceSlots)
		a.tail = append(a.tail, speculators.TailFit{Deadline: max(now, 1), Mark: speculators.MarkReducePool, Sigma: red})
	}
	if a.bounded || view.Slots <= 0 {
		return
	}
	// Copies are not load: the busy fraction of originals only, or the
	// clones this rule starts would read as load and stop it.
	busy := math.Max(0, math.Min(1, float64(view.Slots-view.Idle-view.SpeculativeRunning)/float64(view.Slots)))
	if a.unordBusyAt >= 0 && busy >= a.unordLoad {
		// Rule v22, over every member the busy fraction could choose and
		// over the spread member's choice.
		a.choose(a.unordBusyAt, fmt.Sprintf("%s placed at busy fraction %.2f, at or above %.2f%s", familyWhy[a.family], busy, a.unordLoad, a.unordWhy))
		return
	}
	if a.poolAt >= 0 && red >= a.policy.poolReduceLoad && (a.chosen == a.spreadAt || a.chosen == a.tailAt) {
		// Rule v67: slot pools lend no slot between the pools (LATE §2),
		// so a reduce pool that stays full beside a light map pool reads
		// as a light cluster in the busy fraction above, while each
		// reduce copy takes the slot a queued reduce waits for (Xu and Lau
		// §III). RAS's saving test, fed a t_rem read in a reduce's copy
		// phase, copies reduces there (docs/auto-history.md, rule v52's
		// search); mantri copies only a task far past a new copy's time.
		// The job's own placement and the last records of the placements
		// before it must both read the pool full, so one instant does not
		// decide. Over rule v29: the busy fraction counts both pools.
		if k, mean := reducePoolMean(a.policy.env.Prior, a.policy.poolRecords); k >= a.policy.poolRecords && (a.policy.poolRecords == 0 || mean >= a.policy.poolReduceLoad) {
			a.choose(a.poolAt, fmt.Sprintf("%s; placed with its reduce pool %.2f busy, and at the last %d placements %.2f on average, at least %.2f: a reduce pool that stays full (%s)", a.why, red, k, mean, a.policy.poolReduceLoad, ParamPoolMember))
			return
		}
	}
	if a.tailBusyAt >= 0 && a.chosen == a.tailAt && busy >= a.policy.busyLoad {
		// Rule v29: on a busy cluster the tail switch runs RAS, not GS.
		// GRASS's Guideline 3 (Trimming Stragglers in Approximation
		// Analytics, §3.2) has RAS near-optimal for jobs of more than two
		// waves, and GRASS approximates waves by utilization (§4.1); the
		// busy fraction at placement is that utilization. Choice: the
		// cut is busy-load, where the busy member already takes over,
		// rather than a fitted cut of its own; a waves count (maps over
		// free slots) did not tell the rows apart, since a GS job's own
		// copies keep slots free (heldout27/overload-stingy-caps-fifo:
		// 68.3 s at two waves, 61.7 at one, ras 54.7).
		a.choose(a.tailBusyAt, fmt.Sprintf("%s, then placed at busy fraction %.2f, at or above %.2f (%s)", a.why, busy, a.policy.busyLoad, ParamTailBusy))
		return
	}
	if a.spreadBusyAt >= 0 && a.spreadAt >= 0 && a.chosen == a.spreadAt && busy >= a.policy.spreadBusyLoad {
		// Rule v53: on a busy cluster of containers the spread switch runs
		// RAS, as rule v29 does for the tail switch.
		a.choose(a.spreadBusyAt, fmt.Sprintf("%s, then placed at busy fraction %.2f, at or above %.2f (%s)", a.why, busy, a.policy.spreadBusyLoad, ParamSpreadBusy))
		return
	}
	if (a.learnedTail || a.learnedSpread) && !a.fixedSmall {
		// Rule v5's choice stands over the load and idle-slot cuts; a
		// job small by its size may still clone on an idle cluster
		// (choice: keeping the idle-slot cut's clones under v5 was
		// slower on both tuning files it touches, 5 seeds: small-idle
		// 61.4 s against 60.8, lognormal-reduces 62.5 against 55.4).
		return
	}
	if busy >= a.cloneLoad {
		if a.learnedTail || a.learnedSpread {
			return // the tail or spread member stands over the busy cut
		}
		if a.busyAt >= 0 && busy >= a.busyCut {
			a.choose(a.busyAt, fmt.Sprintf("%s placed at busy fraction %.2f, at or above %.2f%s", familyWhy[a.family], busy, a.busyCut, a.busyWhy))
		}
		return
	}
	if a.smallAt < 0 {
		return
	}
	tasks := float64(len(job.Tasks[speculators.Map]) + len(job.Tasks[speculators.Reduce]))
	switch {
	case a.narrowWhy != "" && a.fixedSmall && !a.heavy:
		// Rule v54: no clones after records of a narrow upper half.
		a.why = fmt.Sprintf("%s; placed at busy fraction %.2f, below %.2f, not cloned%s", a.why, busy, a.cloneLoad, a.narrowWhy)
	case a.fixedSmall && !a.heavy && a.policy.smallRoom > 0 && tasks > a.policy.smallRoom*float64(view.Idle):
		// Rule v30: a job small by its size clones only with room for
		// its clones; otherwise it keeps its member. Rule v31 asks for
		// room for three clones a task (the share's default 0.25).
		a.why = fmt.Sprintf("%s; %.0f tasks, more than %.2f of %d idle slots (%s)", a.why, tasks, a.policy.smallRoom, view.Idle, ParamSmallRoom)
	case a.fixedSmall && a.singleTaskAt && a.busyAt >= 0 && a.policy.singleBudget > 0 && !job.Info.SlotPools && float64(view.SpeculativeRunning) >= a.policy.singleBudget*float64(view.Slots):
		// Rule v70: Dolly's clone budget (Ananthanarayanan et al., Effective
		// Straggler Mitigation: Attack of the Clones, §4.2): the clones
		// running at once stay within a share of the cluster. A job of
		// one task of each kind placed while earlier jobs' clones hold
		// that share runs single-task-member, as on a busy cluster
		// (rule v20), rather than cloning too.
		a.choose(a.busyAt, fmt.Sprintf("a small job placed at busy fraction %.2f, below %.2f, with %d clones running, at least %.2f of %d slots (%d idle) (%s)%s", busy, a.cloneLoad, view.SpeculativeRunning, a.policy.singleBudget, view.Slots, view.Idle, ParamSingleBudget, a.busyWhy))
	case a.fixedSmall:
		a.choose(a.smallAt, fmt.Sprintf("a small or heavy-tailed job placed at busy fraction %.2f, below %.2f", busy, a.cloneLoad))
	case a.family == Exact && a.idleShare > 0 && tasks <= a.idleShare*float64(view.Idle) && !(a.idleEvery && a.slowSeen):
		a.choose(a.smallAt, fmt.Sprintf("%.0f tasks, at most %.2f of %d idle slots, placed at busy fraction %.2f, below %.2f", tasks, a.idleShare, view.Idle, busy, a.cloneLoad))
	}
}

// placementView is the cluster as live sees it at the job's first Decide
// with a task running (xulau.LiveView), made comparable with the
// simulator's view at the job's first placement, which is taken before the
// job holds any slot: the job's own running originals are not load.
// LiveView already counts them idle when the ResourceManager's capacity is
// known; from the job's own slots it counts them busy, so they are added
// back (choice: without it, a job whose tasks all start at once read as a
// full cluster live and an idle one in the simulator).
func placementView(job *speculators.Job) speculators.ClusterView {
	v := xulau.LiveView(job, 2)
	if job.Info.Capacity != nil {
		if _, _, ok := job.Info.Capacity(); ok {
			return v
		}
	}
	if v.Slots > 0 {
		for ty := range job.Tasks {
			v.Idle += job.RunningAttempts[ty] - job.SpeculativeRunning[ty]
		}
		v.Idle = min(v.Idle, v.Slots)
	}
	return v
}

// Decide asks the chosen member and the failure layer, naming the member
// in each reason.
func (a *fitted) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	if !a.placed && job.RunningTasks[speculators.Map]+job.RunningTasks[speculators.Reduce] > 0 {
		// Live no one asks LaunchCopies: the first Decide with a task
		// running decides from the job's view of the cluster.
		a.choosePlaced(job, placementView(job), now)
	}
	if a.chosen < 0 {
		return out
	}
	if a.limpAt >= 0 && (a.chosen == a.spreadAt || a.chosen == a.poolAt) && job.RunningTasks[speculators.Map] > 0 {
		a.limpingMap(job, now, a.limpAt, a.policy.limpFactor, "a limping tracker", ParamLimpMember)
	}
	if a.lastWaveOn && a.limpAt >= 0 && a.chosen == a.spreadAt {
		a.lastWave(job)
	}
	if a.trackerAt >= 0 && !a.trackerRead && a.chosen == a.oneRedAt && job.RunningTasks[speculators.Map] > 0 {
		a.trackersApart(job, now)
	}
	if a.oneRedLimpAt >= 0 && a.chosen == a.oneRedAt && job.RunningTasks[speculators.Map] > 0 {
		a.limpingMap(job, now, a.oneRedLimpAt, a.policy.oneRedLimpFactor, "a heavy map tail before slots-one-reduce-ratio-records records of reduce against map times", ParamOneRedLimp)
	}
	if a.slotsLimpAt >= 0 && a.chosen != a.slotsLimpAt && job.RunningTasks[speculators.Map] > 0 {
		if n := a.members[a.chosen].name; n == "late" || n == "hadoop" {
			a.limpingMap(job, now, a.slotsLimpAt, a.policy.slotsLimpFactor, "trackers of different speeds", ParamSlotsLimpMember)
		}
	}
	if a.failedAt >= 0 && a.chosen != a.failedAt && grassFamily(a.members[a.chosen].name) {
		a.choose(a.failedAt, a.why+a.failedWhy)
	}
	m := &a.members[a.chosen]
	if m.chooser != nil && a.holdReduces && !a.redNamed && job.RunningTasks[speculators.Reduce] > 0 {
		a.nameReducesHeld(job)
	}
	start := len(out)
	out = m.s.Decide(job, now, out)
	m.stamp(out[start:])
	if a.killBehind && !a.bounded {
		out = a.killBehindCopies(job, out)
	}
	if a.ownLost && !a.bounded && len(out) > start {
		out = a.dropLostCopies(job, out, start)
	}
	if m.chooser != nil && len(out) > start && a.boundNoRed && a.bounded {
		out = a.dropReduceCopies(job, out, start)
	}
	if a.layer != nil {
		start = len(out)
		out = a.layer.s.Decide(job, now, out)
		a.layer.stamp(out[start:])
	}
	return out
}

// killBehindCopies appends a kill of each running copy of a map that,
// read at its own pace, would finish no sooner than its task's running
// original read at the original's (rule v36). A copy of the same work on a
// node as fast as its original's keeps the original's pace from a later
// start, so it can never win: LATE's time left, (1 - progress) / progress
// rate (Improving MapReduce Performance in Heterogeneous Environments, §4),
// puts its finish after the original's. Such copies are what data skew
// leaves (Reining in the Outliers in Map-Reduce Clusters using Mantri, §2:
// a task's own input, which a copy reads again), and each holds a
// container a queued original would use (Xu and Lau, Optimization for
// Speculative Execution in Big Data Processing Clusters, §III). A copy on a
// faster node, or one that drew shorter work, is ahead of its original and
// stays. Only while the job's copies seldom win (less than
// map-only-kill-behind-wins of its copied maps, or fewer than
// futileMinCopies copied): where they win often, copies pay, and a copy
// behind at its pace so far is left to the member's judgement. Choices,
// said plainly: both attempts are read only from a progress of
// slowMinProgress (0.1), as rule v17 reads a beaten original, and at their
// last reports; nothing stops the member copying the task again (keeping
// it from doing so put heldout5/exponential-map-only-mid, where copies draw
// other work, out); the share, 0.3, is fitted (docs/auto-history.md, rule
// v36).
//
// Cost: it runs at every Decide of the job while the switch is on, so it
// visits only the maps with a running attempt (Job.Live), none at all when
// no copy runs (Job.SpeculativeRunning), and counts the copies' wins (a
// visit of every map) only once a copy behind its original is found.
func (a *fitted) killBehindCopies(job *speculators.Job, out []speculators.Decision) []speculators.Decision {
	if job.SpeculativeRunning[speculators.Map] == 0 {
		return out
	}
	gated := 0 // 0 not yet counted, 1 copies seldom win (kill), -1 they win often
	maps, live := job.Tasks[speculators.Map], job.Live[speculators.Map]
	for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
		t := maps[i]
		if len(t.Attempts) < 2 {
			continue
		}
		o := t.Attempts[0]
		fo, ok := finishAtPace(o)
		if o.Speculative || !o.Running() || !ok {
			continue
		}
		for _, c := range t.Attempts[1:] {
			if !c.Speculative || !c.Running() || a.killed[c.ID] {
				continue
			}
			if fc, ok := finishAtPace(c); ok && fc >= fo {
				if gated == 0 {
					gated = 1
					if copied, won := copyWins(job, speculators.Map); copied >= futileMinCopies && float64(won) >= a.policy.killBehind*float64(copied) {
						gated = -1
					}
				}
				if gated < 0 {
					return out
				}
				if a.killed == nil {
					a.killed = make(map[speculators.AttemptID]bool)
				}
				a.killed[c.ID] = true
				out = append(out, speculators.Decision{Kind: speculators.Kill, Task: t.ID, Attempt: c.ID,
					Reason: fmt.Sprintf("auto: the copy, at %.0f%% after %.1f s, would finish no sooner than its original at %.0f%% (%s)",
						100*c.Progress, float64(c.LastReport-c.Start)/1000, 100*o.Progress, ParamKillBehind)})
			}
		}
	}
	return out
}

// noReduceCopies reports whether rule v64 holds back a copy of the job's
// reduces: the job has an error bound and no deadline, runs on containers
// (not Hadoop 1 slot pools, where a reduce copy takes a reduce slot no map
// would use: boundNoRed is set at ForJob), and its member chooses slots
// (grass, gs, ras, mantri); the first time, the reason says so.
//
// Rule v64 (bounded-error-no-reduce-copies). The time to an error bound
// counts the job's maps only (Trimming Stragglers in Approximation
// Analytics, §5.2: the bound is on the input processed), so a copy of a
// reduce never brings the job's bound nearer, and it holds a container
// for the length of a reduce while the other error-bound jobs' maps wait
// for it (Xu and Lau, Optimization for Speculative Execution in Big Data
// Processing Clusters, §III). A reduce's copy phase moves at the pace of
// the maps it fetches from and, once the bound drops the last maps, of
// the fetches of the done maps' outputs; GRASS's t_rem, extrapolated from
// that pace (§5.1), reads it as a straggler (Improving MapReduce
// Performance in Heterogeneous Environments, §3.2, on the copy phase's
// progress), all the more where copying is most of a reduce's time. It
// reads the job's bound and the member's kind, the same live and in
// replay.
func (a *fitted) noReduceCopies(job *speculators.Job) bool {
	if !a.boundNoRed || !a.bounded || job.ErrorBound <= 0 || job.Deadline > 0 {
		return false
	}
	if !a.noRedNamed {
		a.noRedNamed = true
		a.why += fmt.Sprintf("; an error-bound job's time to its bound counts its maps only: no copy of its reduces (%s)", ParamBoundNoRed)
	}
	return true
}

// dropReduceCopies is rule v64 for Decide's push form (live, where a
// member that chooses slots in the simulator asks its copies in Decide):
// it drops each copy of a reduce from out[start:], the member's decisions.
func (a *fitted) dropReduceCopies(job *speculators.Job, out []speculators.Decision, start int) []speculators.Decision {
	redCopy := func(d speculators.Decision) bool {
		return d.Kind == speculators.Speculate && d.Task.Type == speculators.Reduce
	}
	if !slices.ContainsFunc(out[start:], redCopy) || !a.noReduceCopies(job) {
		return out
	}
	return out[:start+len(slices.DeleteFunc(out[start:], redCopy))]
}

// dropLostCopies is rule v57: from out[start:], the member's decisions, it
// drops each copy of a map once the job's own done maps that had a copy
// number at least slots-own-copies-lost-copied and a copy won less than
// slots-own-copies-lost-wins of them; the first time, the reason says so.
// It reads the copies' wins (kept between Decides: mapsKept) only when
// the member asks for a map copy.
func (a *fitted) dropLostCopies(job *speculators.Job, out []speculators.Decision, start int) []speculators.Decision {
	mapCopy := func(d speculators.Decision) bool {
		return d.Kind == speculators.Speculate && d.Task.Type == speculators.Map
	}
	// The job's own copies are counted only when its member asks for a
	// map copy.
	if !slices.ContainsFunc(out[start:], mapCopy) || !a.ownCopiesLost(job) {
		return out
	}
	return out[:start+len(slices.DeleteFunc(out[start:], mapCopy))]
}

// limpingMap moves a job to members[to] once one of its running original
// maps, read at its pace (finishAtPace), takes at least factor times the
// median time of its original maps (done ones at their time, running ones
// at their pace: originalLogs), at least futileMinCopies of them done; the
// reason names what the limping map says and the rule's parameter. Rule
// v59 reads it for a job the spread switch chose on slow trackers (rule
// v28's member; spread-slots-limping-member and -factor), rule v66 (b) for
// a job on slot pools of at most spread-slots-weak-reduces reduces whose
// member is late or hadoop (slots-limping-member and -factor).
//
// Cost: it runs at every Decide of such a job while maps run, so the
// settled originals' times are kept sorted between Decides (mapsKept)
// and a Decide visits only the running maps (Job.Live): on a job of
// 10,000 maps with 1,000 running a scan of every map and a sort cost
// 0.3 ms a Decide (BenchmarkLimpingMapCheck10k).
func (a *fitted) limpingMap(job *speculators.Job, now speculators.Time, to int, factor float64, says, param string) {
	worst, median, n := a.keptMaps(job).limping(job, now)
	if worst <= 0 || worst < factor*median {
		return
	}
	a.choose(to, fmt.Sprintf("%s; then a running map at its pace takes %.1fx the median of its %d maps, at least %.1f: %s (%s)", a.why, worst/median, n, factor, says, param))
}

// lastWave is rule v68: a job of at most spread-slots-last-wave-reduces
// reduces that the spread switch started on spread-slots-slow-member
// (rule v28's ras) moves to spread-slots-limping-member (rule v59's gs)
// once every map is done and a reduce runs: its few reduces are its last
// wave, where GRASS switches from RAS to GS (GRASS §4: RAS early, GS in
// the last wave, where a copy no longer delays a later wave's tasks).
// The job keeps it to its end.
//
// Cost: two counts at each Decide of such a job.
func (a *fitted) lastWave(job *speculators.Job) {
	n := len(job.Tasks[speculators.Reduce])
	if n == 0 || n > a.policy.lastWaveRed || job.RunningTasks[speculators.Reduce] == 0 || job.Completed[speculators.Map] < len(job.Tasks[speculators.Map]) {
		return
	}
	a.choose(a.limpAt, fmt.Sprintf("%s; then its maps done, its %d reduces, at most %d, are its last wave (%s)", a.why, n, a.policy.lastWaveRed, ParamLastWaveRed))
}

// trackersApart is rule v60: once the job's original maps give at least
// slots-one-reduce-tracker-maps readings on trackers that ran two or more
// of them (at least minSplitTrackers such trackers), it reads, once, how
// far apart its trackers are: the spread of the trackers' mean log map
// times (between) against the pooled spread of the log times on one
// tracker (within). From between >= split x within the job runs
// slots-one-reduce-tracker-member to its end.
//
// Cost: it visits the job's maps at each Decide only until the reading is
// taken (a few Decides after the maps start), never after.
func (a *fitted) trackersApart(job *speculators.Job, now speculators.Time) {
	between, within, n, k := trackerSplit(job)
	if n < a.policy.trackerMaps || k < minSplitTrackers {
		return
	}
	a.trackerRead = true
	if within <= 0 || between < a.policy.trackerSplit*within {
		return
	}
	a.choose(a.trackerAt, fmt.Sprintf("%s; then its maps' log times spread %.2f between %d trackers, at least %.1fx the %.2f on one tracker (%d maps): trackers of different speeds (%s)",
		a.why, between, k, a.policy.trackerSplit, within, n, ParamTrackerMember))
}

// reducePoolMean is rule v67's reading of the prior: how many of the last
// n reduce-pool records (speculators.MarkReducePool) it holds, at most n,
// and their mean busy fraction.
func reducePoolMean(prior speculators.Prior, n int) (k int, mean float64) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	all := tp.TailFits()
	for i := len(all) - 1; i >= 0 && k < n; i-- {
		if f := all[i]; f.IsDeadline() && f.Mark == speculators.MarkReducePool {
			k++
			mean += f.Sigma
		}
	}
	if k > 0 {
		mean /= float64(k)
	}
	return k, mean
}

// minSplitTrackers is the fewest trackers, each with two or more of the
// job's maps read, that rule v60 reads a split from.
const minSplitTrackers = 3

// trackerSplit reads the job's original maps, done ones at their time and
// running ones at their pace (finishAtPace, from a progress of 0.1), on the
// trackers that ran at least two of them: the standard deviation of the
// trackers' mean log times (between), the pooled standard deviation of
// the log times about their tracker's mean (within), how many maps it read
// (n) and on how many trackers (k). Copies are left out: a copy is placed
// where a slot is free, not where its job's maps fell. Rule v60.
func trackerSplit(job *speculators.Job) (between, within float64, n, k int) {
	type node struct {
		sum, sq float64
		n       int
	}
	// The trackers in the order the job's maps first met them, so that
	// the sums below add up in one order (a map's order is random).
	var (
		by    map[speculators.NodeID]int
		nodes []node
	)
	for _, t := range job.Tasks[speculators.Map] {
		if len(t.Attempts) == 0 || t.Attempts[0].Speculative {
			continue
		}
		at := t.Attempts[0]
		var d float64
		switch at.State {
		case speculators.StateSucceeded:
			d = float64(at.Finish - at.Start)
		case speculators.StateRunning:
			f, ok := finishAtPace(at)
			if !ok {
				continue
			}
			d = f - float64(at.Start)
		default:
			continue
		}
		if d <= 0 {
			continue
		}
		if by == nil {
			by = map[speculators.NodeID]int{}
		}
		i, ok := by[at.Node]
		if !ok {
			i = len(nodes)
			by[at.Node] = i
			nodes = append(nodes, node{})
		}
		c := &nodes[i]
		x := math.Log(d)
		c.sum += x
		c.sq += x * x
		c.n++
	}
	var sum, sq, wss float64
	for _, c := range nodes {
		if c.n < 2 {
			continue
		}
		m := c.sum / float64(c.n)
		sum += m
		sq += m * m
		wss += c.sq - float64(c.n)*m*m
		n += c.n
		k++
	}
	if k < 2 || n <= k {
		return 0, 0, n, k
	}
	mean := sum / float64(k)
	between = math.Sqrt(math.Max(0, sq-float64(k)*mean*mean) / float64(k-1))
	within = math.Sqrt(math.Max(0, wss) / float64(n-k))
	return between, within, n, k
}

// limping is the longest time a running original map takes at its pace
// (finishAtPace; 0 if none, or if fewer than futileMinCopies originals
// succeeded) and, if it is above 0, the median of the n times
// originalLogs reads (exp of the sorted logs' element n/2).
func (r *mapsKept) limping(job *speculators.Job, now speculators.Time) (worst, median float64, n int) {
	if r.done < futileMinCopies {
		return 0, 0, 0
	}
	r.running = r.running[:0]
	maps, live := job.Tasks[speculators.Map], job.Live[speculators.Map]
	for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
		t := maps[i]
		if len(t.Attempts) == 0 || t.Attempts[0].Speculative || !t.Attempts[0].Running() {
			continue
		}
		at := t.Attempts[0]
		if end, ok := finishAtPace(at); ok {
			worst = max(worst, end-float64(at.Start))
		}
		// originalLogs's reading of a running original at its pace.
		if d := float64(now - at.Start); d > 0 && at.Progress >= slowMinProgress {
			r.running = append(r.running, math.Log(d/at.Progress))
		}
	}
	if worst <= 0 {
		return 0, 0, 0
	}
	sort.Float64s(r.running)
	n = len(r.settled) + len(r.running)
	return worst, math.Exp(kthOfTwo(r.settled, r.running, n/2)), n
}

// mapsKept is what rules v57 and v59 read of a job's maps that no
// longer change until their next event, kept between Decides: the logs of
// the original maps' times once they no longer run, as originalLogs reads
// them, sorted (rule v59); how many originals succeeded (rule v59); and
// doneCopyWins's counts (rule v57). Fitted.Observe updates a task's part
// at each of its events (a task's attempts are added, and change state,
// only at their own events), so a Decide reads them without visiting the
// done maps.
type mapsKept struct {
	settled []float64 // sorted
	// at[i] is task i's part.
	at                []mapPart
	done, copied, won int
	running           []float64 // the running originals' logs, reused by each Decide
}

// mapPart is one task's part of mapsKept: its original's log in settled
// (in), whether its original succeeded (done), and, for a done task,
// whether it had a copy (copied) and a copy succeeded (won).
type mapPart struct {
	log                   float64
	in, done, copied, won bool
}

// keptMaps is the job's mapsKept, read from every map the first time.
func (a *fitted) keptMaps(job *speculators.Job) *mapsKept {
	if a.maps == nil {
		a.maps = &mapsKept{at: make([]mapPart, len(job.Tasks[speculators.Map]))}
		for i := range job.Tasks[speculators.Map] {
			a.maps.update(job, i)
		}
	}
	return a.maps
}

// update reads task i again and moves its part of the reading.
func (r *mapsKept) update(job *speculators.Job, i int) {
	maps := job.Tasks[speculators.Map]
	if i < 0 || i >= len(maps) {
		return
	}
	if i >= len(r.at) {
		r.at = speculators.Grow(r.at, len(maps))
	}
	now := partOf(maps[i])
	old := &r.at[i]
	if *old == now {
		return
	}
	if old.in {
		j := sort.SearchFloat64s(r.settled, old.log)
		r.settled = slices.Delete(r.settled, j, j+1)
	}
	if now.in {
		j := sort.SearchFloat64s(r.settled, now.log)
		r.settled = slices.Insert(r.settled, j, now.log)
	}
	count := func(was, is bool, n *int) {
		if was {
			*n--
		}
		if is {
			*n++
		}
	}
	count(old.done, now.done, &r.done)
	count(old.copied, now.copied, &r.copied)
	count(old.won, now.won, &r.won)
	*old = now
}

// partOf reads task t's part: originalLogs's reading of its original once
// it no longer runs (in false while it runs, before it starts, or where
// originalLogs leaves it out), whether that original succeeded, and
// countCopyWins's reading of the task when it is done.
func partOf(t *speculators.Task) mapPart {
	var p mapPart
	if t.Done() {
		for _, at := range t.Attempts {
			if at.Speculative {
				p.copied = true
				p.won = p.won || at.State == speculators.StateSucceeded
			}
		}
	}
	if len(t.Attempts) == 0 || t.Attempts[0].Speculative {
		return p
	}
	at := t.Attempts[0]
	if at.State == speculators.StateRunning || at.State == speculators.StateFailed {
		return p
	}
	p.done = at.State == speculators.StateSucceeded
	d := float64(at.Finish - at.Start)
	if d <= 0 || (!p.done && at.Progress < slowMinProgress) {
		return p
	}
	if !p.done {
		d /= at.Progress
	}
	p.log, p.in = math.Log(d), true
	return p
}

// kthOfTwo is the k-th smallest (from 0) of the union of two sorted
// slices, k below their total length.
func kthOfTwo(x, y []float64, k int) float64 {
	i, j := 0, 0
	for {
		switch {
		case i == len(x):
			return y[j+k]
		case j == len(y):
			return x[i+k]
		case k == 0:
			return min(x[i], y[j])
		}
		if x[i] <= y[j] {
			i++
		} else {
			j++
		}
		k--
	}
}

// ownCopiesLost reads rule v57's evidence: the job's own done maps that
// had a copy number at least slots-own-copies-lost-copied, and a copy won
// less than slots-own-copies-lost-wins of them. The first time it holds,
// the reason says so.
func (a *fitted) ownCopiesLost(job *speculators.Job) bool {
	kept := a.keptMaps(job)
	copied, won := kept.copied, kept.won
	if copied < a.policy.ownLostCopied || float64(won) >= a.policy.ownLostWins*float64(copied) {
		return false
	}
	if !a.ownLostOn {
		a.ownLostOn = true
		a.why += fmt.Sprintf("; then its own copies won %d of %d done copied maps, below %.2f, on slot pools: no more map copies (%s)", won, copied, a.policy.ownLostWins, ParamOwnLostCopied)
	}
	return true
}

// finishAtPace is when the attempt would finish at the pace it has kept to
// its last report: its start plus its time then over its progress; ok is
// false below slowMinProgress or before a report.
func finishAtPace(at *speculators.Attempt) (float64, bool) {
	if at.Progress < slowMinProgress || at.LastReport <= at.Start {
		return 0, false
	}
	return float64(at.Start) + float64(at.LastReport-at.Start)/at.Progress, true
}

// name_ prefixes each decision's reason with auto→member and sets its
// Member (the wire's member, the shim's per-member counter).
func (m *member) stamp(ds []speculators.Decision) {
	for i := range ds {
		ds[i].Reason, ds[i].Why, ds[i].Member = m.prefix+ds[i].ReasonText(), speculators.Why{}, m.name
	}
}

// AllowSpeculativeOn refuses nodes the fault analyzer reports suspect or
// down, then asks the chosen member.
func (a *fitted) AllowSpeculativeOn(job *speculators.Job, node speculators.NodeID, now speculators.Time) bool {
	if n := job.Node(node); n != nil && (n.Health == speculators.NodeSuspect || n.Health == speculators.NodeDown) {
		return false
	}
	if a.chosen >= 0 {
		if g := a.members[a.chosen].gate; g != nil {
			return g.AllowSpeculativeOn(job, node, now)
		}
	}
	return true
}

// TakeLearned hands out what every member learned (GRASS's samples come
// from the bounded member). Every member sees every event of the job, so
// each GRASS-family member records the same first successes as run times:
// those are taken from the first member that teaches only, or a job with
// two such members (grass and the tail member gs) would hand each run time
// out twice and fill the store's window twice as fast.
func (a *fitted) TakeLearned(l *speculators.Learned) {
	if len(a.tail) > 0 {
		l.Tails = append(l.Tails, a.tail...)
		a.tail = a.tail[:0]
	}
	first := true
	for i := range a.members {
		t := a.members[i].teacher
		if t == nil {
			continue
		}
		if first {
			t.TakeLearned(l)
			first = false
			continue
		}
		n := len(l.Runtimes)
		t.TakeLearned(l)
		l.Runtimes = l.Runtimes[:n] // the same completions, seen again
	}
}

// pullFitted is auto for a job whose family has a slot chooser (GRASS).
type pullFitted struct{ *fitted }

// OfferSlots puts every slot-choosing member in pull mode.
func (a *pullFitted) OfferSlots(job *speculators.Job) {
	a.offered = true
	for i := range a.members {
		if c := a.members[i].chooser; c != nil {
			c.OfferSlots(job)
		}
	}
}

// WantsSlot asks the chosen member, if it chooses slots.
func (a *pullFitted) WantsSlot(job *speculators.Job, now speculators.Time) bool {
	return a.memberWantsSlot(job, now)
}

// memberWantsSlot is the chosen member's WantsSlot; false when no member
// is chosen or it does not choose slots. pullFitted and fullFitted both
// ask it directly: the simulator asks at every scheduling round, and each
// layer of calls showed in a replay's profile (issue 31).
func (a *fitted) memberWantsSlot(job *speculators.Job, now speculators.Time) bool {
	if a.chosen < 0 {
		return false
	}
	if c := a.members[a.chosen].chooser; c != nil {
		return c.WantsSlot(job, now)
	}
	return false
}

// ChooseForSlot asks the chosen member, if it chooses slots.
func (a *pullFitted) ChooseForSlot(job *speculators.Job, node speculators.NodeID, now speculators.Time) (speculators.TaskID, bool, bool) {
	if a.chosen < 0 {
		return speculators.TaskID{}, false, false
	}
	if c := a.members[a.chosen].chooser; c != nil {
		t, copy, ok := c.ChooseForSlot(job, node, now)
		if ok && copy && t.Type == speculators.Map && a.ownLost && !a.bounded && a.ownCopiesLost(job) {
			return speculators.TaskID{}, false, false // rule v57
		}
		if ok && copy && t.Type == speculators.Reduce && a.noReduceCopies(job) {
			return speculators.TaskID{}, false, false // rule v64
		}
		return t, copy, ok
	}
	return speculators.TaskID{}, false, false
}

// pullClonerFitted is auto for a job whose family has a slot chooser and
// a busy member chosen at the first placement (a Pareto job: ras, or ese
// when busy) and that is not ordered (pareto-order false, or order none): pullFitted with LaunchCopies, which makes the choice, and no
// job order of its own, so that a job that stays with ras is served as
// pullFitted serves it (the cluster scheduler's order among its like).
type pullClonerFitted struct{ *pullFitted }

// LaunchCopies makes the busy choice from the simulator's view of the
// cluster and asks the chosen member how many attempts each task starts
// with.
func (a *pullClonerFitted) LaunchCopies(job *speculators.Job, view speculators.ClusterView, now speculators.Time) int {
	return a.fitted.launchCopies(job, view, now)
}

// pullOrderedFitted is auto for a job with a bound whose members choose
// slots (GRASS), ordered on free slots (bounded-order): pullFitted with
// fullFitted's order.
type pullOrderedFitted struct{ *pullFitted }

// PriorityByEvents is fullFitted's.
func (a *pullOrderedFitted) PriorityByEvents() bool { return a.fitted.priorityByEvents() }

// JobPriority is fullFitted's.
func (a *pullOrderedFitted) JobPriority(job *speculators.Job, now speculators.Time) speculators.Priority {
	return (&fullFitted{a.fitted}).JobPriority(job, now)
}

// fullFitted is auto for a small job: it may clone (the small member, a
// Cloner and JobPrioritizer) or choose slots (GRASS), so it has every
// optional interface and forwards each to the member that has it.
type fullFitted struct{ *fitted }

// OfferSlots, WantsSlot and ChooseForSlot are pullFitted's.
func (a *fullFitted) OfferSlots(job *speculators.Job) { (&pullFitted{a.fitted}).OfferSlots(job) }

// WantsSlot asks the chosen member, if it chooses slots, once the job's
// first task is placed: the first placement is the scheduler's, so that
// LaunchCopies sees the cluster before any member places a task.
func (a *fullFitted) WantsSlot(job *speculators.Job, now speculators.Time) bool {
	return a.placed && a.memberWantsSlot(job, now)
}

// ChooseForSlot asks the chosen member, if it chooses slots.
func (a *fullFitted) ChooseForSlot(job *speculators.Job, node speculators.NodeID, now speculators.Time) (speculators.TaskID, bool, bool) {
	if !a.placed {
		return speculators.TaskID{}, false, false
	}
	return (&pullFitted{a.fitted}).ChooseForSlot(job, node, now)
}

// JobPriority is the small member's order (fewest tasks left first) for
// as long as the job may still clone or runs the small member; otherwise
// the job waits behind every ordered job (the tier after the waiting
// ones), which leaves it to the cluster scheduler's order among its
// like.
func (a *fullFitted) JobPriority(job *speculators.Job, now speculators.Time) speculators.Priority {
	if a.bounded && a.ordered && a.boundedOrder == BoundedFirst {
		// Rule v13: a job with a bound ahead of every exact job, by
		// work left among its like.
		if a.deadlineEDF {
			// Rule v46: deadline jobs by their deadline plus their work
			// left spread over the cluster's slots, behind the
			// error-bound jobs (still by work left).
			if job.Deadline > 0 {
				return speculators.Priority{Tier: tierBounded, Key: deadlineKey(job, a.workLeft(job))}
			}
			return speculators.Priority{Tier: tierBounded - 1, Key: a.workLeft(job)}
		}
		return speculators.Priority{Tier: tierBounded, Key: a.workLeft(job)}
	}
	pr := a.jobPriority(job, now)
	if a.tasksLeft && (pr.Tier == xulau.TierStarted || pr.Tier == xulau.TierWaiting) {
		// Rule v73: with no a-priori mean the work left would read a
		// stand-in or the job's own completions; its count of tasks not
		// done keys it among the started jobs, which go before every new
		// job (SCA's levels, Xu & Lau §IV-A).
		if anyStarted(job) {
			return speculators.Priority{Tier: xulau.TierStarted, Key: xulau.RemainingWork(job, 1)}
		}
		return speculators.Priority{Tier: xulau.TierWaiting, Key: float64(xulau.TaskCount(job)) * a.mean.Of(job, 2)}
	}
	if a.order == OrderRemaining && (pr.Tier == xulau.TierStarted || pr.Tier == xulau.TierWaiting) {
		// Rule v9: started and new jobs in one level, by work left.
		tier := xulau.TierStarted
		if a.copiesLast && job.PendingCopies == 0 && originalsPlaced(job) || // rule v16: only copies to place
			a.reducesWait && reducesWaitOnMaps(job) && !a.reducesLastMaps(job) { // rule v18: its reduces would only copy while its maps run
			tier = tierCopiesLast // behind every original
		}
		key := a.workLeft(job)
		if tier == xulau.TierStarted && a.paceUnknown && !xulau.MeanKnown(job) {
			// Rule v50: no a-priori mean and no task done, so the mean
			// would read 1 ms (xulau.LawOf) and the job's key its count
			// of tasks, below that of any job with a task done: the time
			// its running maps would take at their pace stands in for it.
			if mean, ok := paceMean(job); ok {
				key = xulau.RemainingWork(job, mean)
			} else if a.priorMean > 0 {
				// Rule v65: before any report, the prior's run time
				// of its maps stands in, not 1 ms.
				key = xulau.RemainingWork(job, a.priorMean)
			}
		}
		return speculators.Priority{Tier: tier, Key: key}
	}
	return pr
}

// PriorityByEvents holds when every member that orders jobs promises it:
// auto's own levels read the job's counts, its copy ledger, its mean task
// time and the member chosen, which move only with the job's events and
// auto's own calls.
func (a *fullFitted) PriorityByEvents() bool { return a.priorityByEvents() }

func (a *fitted) priorityByEvents() bool {
	for _, m := range a.members {
		if m.prio == nil {
			continue
		}
		if pe, ok := m.prio.(speculators.PriorityByEvents); !ok || !pe.PriorityByEvents() {
			return false
		}
	}
	return true
}

// workLeft is the job's remaining work with the mean task time a-priori or
// from its completions (xulau.RemainingWork), the key of order's level.
func (a *fitted) workLeft(job *speculators.Job) float64 {
	return xulau.RemainingWork(job, a.mean.Of(job, 2))
}

// tierCopiesLast is the level of an exact job with only copies to place
// under copies-last-below (rule v16): after order's level and new jobs.
const tierCopiesLast = xulau.TierWaiting + 1

// originalsPlaced says whether every task of the job is running or done:
// nothing is left for it to place but copies (a failed task waiting to run
// again counts as an original to place).
func originalsPlaced(job *speculators.Job) bool {
	for ty := range job.Tasks {
		if job.RunningTasks[ty]+job.Completed[ty] < len(job.Tasks[ty]) {
			return false
		}
	}
	return true
}

// reducesLastMaps says whether a job that waits by rule v33 runs at most
// reduces-after-maps-running-per-reduce maps a reduce: its last maps, with
// which its reduces may overlap their copy (rule v33). False for rule v18's
// jobs, which wait until their last map is done.
func (a *fitted) reducesLastMaps(job *speculators.Job) bool {
	return a.reducesIdleWait && a.policy.reducesRunning > 0 &&
		job.RunningTasks[speculators.Map] <= a.policy.reducesRunning*len(job.Tasks[speculators.Reduce])
}

// reducesWaitOnMaps says whether every map of the job is running or done,
// not every map is done, and a reduce is left to place: all it could place
// now is a reduce that would copy until its last map is done.
func reducesWaitOnMaps(job *speculators.Job) bool {
	m, r := speculators.Map, speculators.Reduce
	maps := len(job.Tasks[m])
	return job.RunningTasks[m]+job.Completed[m] == maps && job.Completed[m] < maps &&
		job.RunningTasks[r]+job.Completed[r] < len(job.Tasks[r])
}

// deadlineKey is rule v46's key of a job with a deadline: its deadline
// plus its work left over the slots it can hold at once (the time that
// work would take on the whole cluster; the deadline alone where the slots
// are unknown). Among like deadlines the job with the least work goes
// first, as rule v13's order had it; among like work, the earliest
// deadline.
func deadlineKey(job *speculators.Job, workLeft float64) float64 {
	k := float64(job.Deadline)
	if job.Info.Slots > 0 {
		k += workLeft / float64(job.Info.Slots)
	}
	return k
}

// tierBounded is the level of jobs with a bound under bounded-order
// first: before sda's jobs with a copy waiting (xulau.TierCopies). Under
// rule v46 the error-bound jobs take the level before it.
const tierBounded = xulau.TierCopies - 1

// jobPriority is the job's priority by rule v8's orders: the small
// member's, the busy member's or orderPriority.
func (a *fullFitted) jobPriority(job *speculators.Job, now speculators.Time) speculators.Priority {
	if a.smallAt >= 0 && (!a.placed && a.fixedSmall || a.chosen == a.smallAt) && a.members[a.smallAt].prio != nil {
		return a.members[a.smallAt].prio.JobPriority(job, now)
	}
	if a.chosen >= 0 && a.chosen == a.busyAt && a.members[a.busyAt].prio != nil {
		// The busy member (sda) orders its own job: with its copies
		// level, since the copies waiting are its own.
		pr := a.members[a.busyAt].prio.JobPriority(job, now)
		if pr.Tier == xulau.TierCopies && a.busyCopiesAfter && a.order == OrderRemaining && !originalsPlaced(job) {
			// Rule v23: the level lifts the whole job; while it has
			// originals to place it stays in order's level (JobPriority
			// keys it by work left).
			pr.Tier = xulau.TierStarted
		}
		return pr
	}
	return a.orderPriority(job, now)
}

// orderPriority is the job's place on free slots when it is not cloning:
// least work first (Xu and Lau's SDA and ESE, levels 2 and 3: a started
// job by its work left, a new one by its whole work, the mean task time
// a-priori or from the job's completions), or, unordered, the tier after
// every ordered job (the cluster scheduler's order among its like).
// Choice: the level of jobs with a copy waiting is left out; late's copies
// would lift the whole job, all its tasks, over every other.
func (a *fitted) orderPriority(job *speculators.Job, _ speculators.Time) speculators.Priority {
	if !a.ordered {
		return speculators.Priority{Tier: xulau.TierWaiting + 1}
	}
	mean := a.mean.Of(job, 2)
	if job.RunningTasks[speculators.Map]+job.RunningTasks[speculators.Reduce]+job.Completed[speculators.Map]+job.Completed[speculators.Reduce] > 0 {
		return speculators.Priority{Tier: xulau.TierStarted, Key: xulau.RemainingWork(job, mean)}
	}
	return speculators.Priority{Tier: xulau.TierWaiting, Key: float64(xulau.TaskCount(job)) * mean}
}

// LaunchCopies makes the small-job choice from the simulator's view of the
// cluster and asks the chosen member how many attempts each task starts
// with.
func (a *fullFitted) LaunchCopies(job *speculators.Job, view speculators.ClusterView, now speculators.Time) int {
	return a.fitted.launchCopies(job, view, now)
}

func (a *fitted) launchCopies(job *speculators.Job, view speculators.ClusterView, now speculators.Time) int {
	a.choosePlaced(job, view, now)
	if c := a.members[a.chosen].cloner; c != nil {
		return c.LaunchCopies(job, view, now)
	}
	return 1
}

// Members lists the member names of a fitted auto, for tests and reports.
func (a *fitted) Members() string {
	names := make([]string, len(a.members))
	for i, m := range a.members {
		names[i] = m.name
	}
	return strings.Join(names, ",")
}

// Rule v5: the task-time tail fitted as tasks finish, carried across jobs.
//
// Each exact job (with reduces, or map-only since rule v7) fits its maps'
// spread once its last map has finished (FitTail) and hands the fit out
// through TakeLearned, as GRASS hands out its samples; the driver keeps
// it (grass.MemoryStore in a replay, the sidecar's Knowledge live) and
// gives it to later jobs as part of their Prior (speculators.TailPrior).
// A new exact job with reduces reads the most recent tailJobs fits
// (learnedSigma) and, when their spread is at least tail-sigma, runs
// tail-member (gs) from its first decision, over the busy and idle-slot
// cuts.
//
// Choices, and why:
//   - Across jobs, not within one: a switch once a job's first ten maps had
//     finished (auto6's prototype) came too late in each job to matter
//     (tuning/lognormal-reduces 94.6 s to 89.9 s against gs's 53.5 s).
//   - The spread is a lognormal's sigma fitted from the lower half of the
//     original attempts' log run times, (q50 - q10) / z(0.9), not their
//     standard deviation: copies cut the upper tail short (an original a
//     copy beat counts with the time it ran, a lower bound), so only the
//     lower half is the law's under any member, and the job that runs gs
//     fits the same spread as one that runs late. It also tells a tail
//     law from slow nodes: a quarter of the nodes three times slower puts
//     its mass above the median and leaves q10 and q50 on the fast nodes.
//   - Every recent exact job of the cluster counts, whatever its name (the
//     engine sees no workload name): a cluster's recent jobs are the
//     workload a new job joins.
//   - A job that ran alone (the bundled late-ec2-* sorts) has no earlier
//     job, so the rule cannot fire there: LATE stays their member.

// tailJobs is how many of the most recent fits a new job reads: enough that
// one job of few maps does not decide alone, few enough to follow a
// workload that changes.
const tailJobs = 5

// tailMinMaps is the fewest finished maps a fit reads (q10 of fewer is one
// task's time).
const tailMinMaps = 10

// zq90 is the standard normal's 0.9 quantile: a lognormal's q50 - q10 of
// log times is zq90 x sigma.
const zq90 = 1.2815515655446004

// FitTail fits the job's map-time spread at now from its original map
// attempts (the first attempt of each map, not a copy): log run times of
// those that succeeded or were killed (run time to the kill, a lower
// bound), or run until now; failed ones are left out (a node fault is not
// the law). ok is false with fewer than tailMinMaps times.
func FitTail(job *speculators.Job, now speculators.Time) (speculators.TailFit, bool) {
	sigma, n := spreadOf(job, speculators.Map, now)
	if n < tailMinMaps {
		return speculators.TailFit{}, false
	}
	f := speculators.TailFit{Maps: n, Sigma: sigma, Slow: SlowShare(job), Upper: upperSpread(job, now)}
	f.Copied, f.CopyWins = copyWins(job, speculators.Map)
	f.Lost, f.LostPaced = lostCopies(job)
	return f, true
}

// lostPaceRatio is how much faster than its original's pace a lost copy
// may have run and still count as at its original's pace (rule v38): a
// copy that redid its original's work on a node no faster runs at about
// the original's pace; 1.25 leaves room for the noise of one node's speed.
const lostPaceRatio = 1.25

// lostCopies counts the job's map copies that lost to their originals
// (killed after the original succeeded) read at a progress of at least
// slowMinProgress, and how many of them ran at their original's pace or
// slower: the copy's time at its last report over its progress at least
// the original's run time over lostPaceRatio (rule v38).
func lostCopies(job *speculators.Job) (lost, paced int) {
	for _, t := range job.Tasks[speculators.Map] {
		if len(t.Attempts) < 2 {
			continue
		}
		o := t.Attempts[0]
		if o.Speculative || o.State != speculators.StateSucceeded || o.Finish <= o.Start {
			continue
		}
		for _, c := range t.Attempts[1:] {
			if !c.Speculative || c.State != speculators.StateKilled || c.Progress < slowMinProgress || c.LastReport <= c.Start {
				continue
			}
			lost++
			if lostPaceRatio*float64(c.LastReport-c.Start)/c.Progress >= float64(o.Finish-o.Start) {
				paced++
			}
		}
	}
	return lost, paced
}

// learnedLostPaced is the share of the lost map copies at their
// originals' pace over the most recent tailJobs map records that lost a
// copy, and how many lost copies they hold (rule v38).
func learnedLostPaced(prior speculators.Prior) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	lost, paced := 0, 0
	eachRecentWhere(tp.TailFits(), false, tailJobs, func(f speculators.TailFit) bool { return f.Lost > 0 }, func(f speculators.TailFit) {
		lost += f.Lost
		paced += f.LostPaced
	})
	if lost == 0 {
		return 0, 0
	}
	return float64(paced) / float64(lost), lost
}

// upperSpread is the upper half of the job's original maps' spread at now
// (rule v17): (q90 - q50) / z(0.9) of their log times, an original a copy
// beat, or still running, at its time over its progress (at least
// slowMinProgress; the lower half, spreadOf, reads it at the time it ran,
// and copies cut exactly this half: with it, a lognormal's upper half read
// as light as a flat law's); 0 with fewer than tailMinMaps times.
func upperSpread(job *speculators.Job, now speculators.Time) float64 {
	logs := originalLogs(job, speculators.Map, now, true)
	if len(logs) < tailMinMaps {
		return 0
	}
	return math.Max(0, math.Min(speculators.MaxTailSigma, (speculators.Percentile(logs, 90)-speculators.Percentile(logs, 50))/zq90))
}

// learnedUpperRatio is the upper-half spread of the most recent map
// records over their lower-half spread (both weighted by maps), over the
// records that carry an upper half; ok is false when none does.
func learnedUpperRatio(prior speculators.Prior) (ratio float64, ok bool) {
	tp, isTail := prior.(speculators.TailPrior)
	if !isTail {
		return 0, false
	}
	var up, low float64
	eachRecent(tp.TailFits(), false, tailJobs, func(f speculators.TailFit) {
		if f.Upper > 0 {
			up += f.Upper * float64(f.Maps)
			low += f.Sigma * float64(f.Maps)
		}
	})
	if low <= 0 || up <= 0 {
		return 0, false
	}
	return up / low, true
}

// spreadOf is the spread of the job's original attempts of type ty at now,
// as FitTail fits it for maps: (q50 - q10) / z(0.9) of their log run
// times, and how many times it read (0 and 0 with none).
func spreadOf(job *speculators.Job, ty speculators.TaskType, now speculators.Time) (float64, int) {
	logs := originalLogs(job, ty, now, false)
	if len(logs) == 0 {
		return 0, 0
	}
	return (speculators.Percentile(logs, 50) - speculators.Percentile(logs, 10)) / zq90, len(logs)
}

// originalLogs is the log run times of the job's original attempts of type
// ty at now (a running one's until now; failed ones and empty times left
// out). atPace reads an original that has not succeeded (running, or
// killed when a copy won) at its time over its progress, and leaves it out
// below slowMinProgress (upperSpread); else at the time it ran (spreadOf).
func originalLogs(job *speculators.Job, ty speculators.TaskType, now speculators.Time, atPace bool) []float64 {
	logs := make([]float64, 0, len(job.Tasks[ty]))
	for _, t := range job.Tasks[ty] {
		if len(t.Attempts) == 0 || t.Attempts[0].Speculative {
			continue
		}
		at := t.Attempts[0]
		end := at.Finish
		switch at.State {
		case speculators.StateFailed:
			continue
		case speculators.StateRunning:
			end = now
		}
		d := float64(end - at.Start)
		if d <= 0 {
			continue
		}
		if atPace && at.State != speculators.StateSucceeded {
			if at.Progress < slowMinProgress {
				continue
			}
			d /= at.Progress
		}
		logs = append(logs, math.Log(d))
	}
	return logs
}

// copyWins counts the job's tasks of type ty that had a speculative copy
// and those a copy won (rule v8 for maps, rule v14 for reduces).
func copyWins(job *speculators.Job, ty speculators.TaskType) (copied, won int) {
	return countCopyWins(job, ty, false)
}

// doneCopyWins is copyWins over the done tasks alone (rule v52: a copy
// still running when the job reaches its bound has neither won nor lost).
func doneCopyWins(job *speculators.Job, ty speculators.TaskType) (copied, won int) {
	return countCopyWins(job, ty, true)
}

func countCopyWins(job *speculators.Job, ty speculators.TaskType, doneOnly bool) (copied, won int) {
	for _, t := range job.Tasks[ty] {
		if doneOnly && !t.Done() {
			continue
		}
		had, byCopy := false, false
		for _, a := range t.Attempts {
			if a.Speculative {
				had = true
				byCopy = byCopy || a.State == speculators.StateSucceeded
			}
		}
		if had {
			copied++
			if byCopy {
				won++
			}
		}
	}
	return copied, won
}

// boundedMember is the member a job with a deadline or an error bound runs
// and what its reason adds: futile-bounded-member when the copies of the
// last exact jobs' maps won less than futile-copy-wins of at least
// futileMinCopies (rule v24), else bounded-member.
func (p *policy) boundedMember() (string, string) {
	if p.futileBound == "" || p.futileWins <= 0 {
		return p.bounded, ""
	}
	if wins, copied := learnedCopyWins(p.env.Prior, false); copied >= futileMinCopies && wins < p.futileWins {
		return p.futileBound, fmt.Sprintf("; copies of the last exact jobs' maps won %.2f of %d, below %.2f (%s)", wins, copied, p.futileWins, ParamFutileBound)
	}
	return p.bounded, ""
}

// reduceHeavyMember is bounded-reduce-heavy-member and what its reason adds
// when a job of info's shape, given an error bound, would run it (rule v40):
// its reduces are at least bounded-reduce-heavy-share of its maps. The time
// to an error bound counts only the maps (GRASS's accuracy is the fraction of input tasks done, §5.2),
// so a job whose work is mostly in its reduces has only a few maps to the
// bound. The share is fitted on one row (the rule's note in auto.md).
func (p *policy) reduceHeavyMember(info speculators.JobInfo) (string, string) {
	if p.redHeavy == "" || p.redHeavyShare <= 0 || info.Maps <= 0 || float64(info.Reduces) < p.redHeavyShare*float64(info.Maps) {
		return "", ""
	}
	return p.redHeavy, fmt.Sprintf("; %d reduces for %d maps, at least %.2g a map: its time to the bound counts only its few maps (%s)", info.Reduces, info.Maps, p.redHeavyShare, ParamRedHeavy)
}

// memorylessMember is bounded-memoryless-member and what its reason adds
// when the recent map records look memoryless (rule v45): a spread of at
// least bounded-memoryless-sigma with an upper half at most
// bounded-memoryless-upper of the lower (an exponential law's log times:
// lower-half spread 1.47, upper 0.94, ratio 0.64; a lognormal's 1).
func (p *policy) memorylessMember() (string, string) {
	if p.memoryless == "" || p.memSigma <= 0 {
		return "", ""
	}
	sigma, jobs := learnedSigma(p.env.Prior)
	if jobs == 0 || sigma < p.memSigma {
		return "", ""
	}
	ratio, ok := learnedUpperRatio(p.env.Prior)
	if !ok || ratio > p.memUpper {
		return "", ""
	}
	return p.memoryless, fmt.Sprintf("; the last %d map records spread %.2f, at least %.2f, their upper half %.2f of it, at most %.2f (%s)", jobs, sigma, p.memSigma, ratio, p.memUpper, ParamMemoryless)
}

// learnedUpper is the recent map records' upper-half spread (rule v17's,
// (q90 - q50) / z(0.9) of log times), weighted by their maps, and how many
// records carry one (rule v48 reads it).
func learnedUpper(prior speculators.Prior) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	return recentMean(tp.TailFits(), false, func(f speculators.TailFit) (float64, float64) {
		if f.Upper <= 0 {
			return 0, 0
		}
		return f.Upper, float64(f.Maps)
	})
}

// narrowMember is bounded-narrow-member and what its reason adds when the
// recent map records' upper-half spread (rule v17's, (q90 - q50) / z(0.9)
// of log times) is at most bounded-narrow-upper (rule v48): the slowest
// maps are not far past the median, so a copy's gain is bounded.
func (p *policy) narrowMember() (string, string) {
	upper, jobs := learnedUpper(p.env.Prior)
	if p.narrow == "" || p.narrowUpper <= 0 || jobs == 0 || upper > p.narrowUpper {
		return "", ""
	}
	sigma, _ := learnedSigma(p.env.Prior)
	if upper > p.narrowRatio*sigma {
		return "", ""
	}
	return p.narrow, fmt.Sprintf("; the last %d map records' upper half spread %.2f, at most %.2f and at most %.2f of their spread %.2f: a copy's gain is bounded (%s)", jobs, upper, p.narrowUpper, p.narrowRatio, sigma, ParamNarrow)
}

// heavyUpperMemberFor is bounded-heavy-upper-member and what its reason adds
// when the recent map records' upper-half spread is at least
// bounded-heavy-upper and their lower-half spread at least
// bounded-heavy-lower, the upper at least bounded-heavy-ratio of the lower
// (rule v48's second half): a tail heavier than a lognormal's, where a map
// that has run long has far to go and Mantri's restart of it pays at once.
func (p *policy) heavyUpperMemberFor() (string, string) {
	if p.heavyUpperMember == "" || p.heavyUpper <= 0 {
		return "", ""
	}
	upper, jobs := learnedUpper(p.env.Prior)
	sigma, _ := learnedSigma(p.env.Prior)
	if jobs == 0 || upper < p.heavyUpper || sigma < p.heavyLower || upper < p.heavyRatio*sigma {
		return "", ""
	}
	return p.heavyUpperMember, fmt.Sprintf("; the last %d map records' upper half spread %.2f, at least %.2f and at least %.2f of their spread %.2f, at least %.2f (%s)", jobs, upper, p.heavyUpper, p.heavyRatio, sigma, p.heavyLower, ParamHeavyUpperM)
}

// deadlineWavesMember is deadline-waves-member and what its reason adds
// when a job of info's size, given a deadline, would run it (rule v26): its
// tasks at least deadline-waves times the slots it can hold; empty when
// the switch is off or the job is smaller or its slots unknown.
// Choice: GRASS (Trimming Stragglers in Approximation Analytics, §3.2)
// has speculation in early waves pay only for an infinite-variance tail
// (Guideline 1), and a job of several waves spends most of its time in
// early waves, where a copy's slot is one of its own originals that the
// deadline would count; the switch reads no tail (JobInfo.TailIndex is
// unknown on most rows) and takes Guideline 3's two waves as the line.
// Deadline only: an error-bound job stops at its bound, not at a time,
// and grass-error lost 6% with the switch applied to error bounds too.
func (p *policy) deadlineWavesMember(info speculators.JobInfo) (string, string) {
	if p.wavesMember == "" || p.waves <= 0 || info.Slots <= 0 {
		return "", ""
	}
	tasks := info.Maps + info.Reduces
	w := float64(tasks) / float64(info.Slots)
	if w < p.waves {
		return "", ""
	}
	return p.wavesMember, fmt.Sprintf("; %d tasks, %.1f waves of %d slots, at least %.1f (%s)", tasks, w, info.Slots, p.waves, ParamWavesMember)
}

// deadlineAhead reports the latest deadline among the deadline records the
// prior holds (rule v41) and whether it lies after start: a job with a
// deadline still racing it when a job starting at start is placed.
func deadlineAhead(prior speculators.Prior, start speculators.Time) (speculators.Time, bool) {
	return recordAhead(prior, start, speculators.MarkDeadline)
}

// boundAheadStep is how far ahead a bound record of rule v44 reaches; a
// job short of its bound hands out a new one every half of it.
const boundAheadStep = speculators.Time(10000)

// boundAhead reports the latest of rule v44's bound records and whether it
// lies after start: a job with an error bound was short of it within
// boundAheadStep of start.
func boundAhead(prior speculators.Prior, start speculators.Time) (speculators.Time, bool) {
	return recordAhead(prior, start, speculators.MarkBoundAhead)
}

// recordAhead reports the latest of the prior's deadline records of one
// kind (rule v41: MarkDeadline; rule v44: MarkBoundAhead) and whether it
// lies after start.
func recordAhead(prior speculators.Prior, start speculators.Time, mark speculators.DeadlineMark) (speculators.Time, bool) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, false
	}
	var latest speculators.Time
	for _, f := range tp.TailFits() {
		if f.IsDeadline() && f.Mark == mark && f.Deadline > latest {
			latest = f.Deadline
		}
	}
	return latest, latest > start
}

// failedBefore reads rule v69's node records: the latest node-failed
// record before start, and whether it lies after every node-resumed
// record before start and at most within before start (a node declared
// failed lately and not back since, as far as the jobs auto ran were
// told).
func failedBefore(prior speculators.Prior, start, within speculators.Time) (speculators.Time, bool) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, false
	}
	var back, last speculators.Time
	for _, f := range tp.TailFits() {
		if !f.IsDeadline() || f.Deadline >= start {
			continue
		}
		switch f.Mark {
		case speculators.MarkNodeResumed:
			back = max(back, f.Deadline)
		case speculators.MarkNodeFailed:
			last = max(last, f.Deadline)
		}
	}
	return last, last > back && start-last <= within
}

// learnedSlowBelow reports whether the last map records ran slow on less
// than cut of their nodes (none read counts as below).
func learnedSlowBelow(prior speculators.Prior, cut float64) bool {
	share, jobs := learnedSlow(prior)
	return jobs == 0 || share < cut
}

// grassFamily reports whether a member is one of GRASS's (gs, ras,
// grass), which copy whenever a copy would finish first or save
// resources (GRASS §3).
func grassFamily(name string) bool {
	return name == "gs" || name == "ras" || name == "grass"
}

// lostBefore reports the earliest of rule v51's lost-output records the
// prior holds and whether it lies at or before now: a job auto ran lost a
// completed map's output on this cluster.
func lostBefore(prior speculators.Prior, now speculators.Time) (speculators.Time, bool) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, false
	}
	var first speculators.Time
	for _, f := range tp.TailFits() {
		if f.IsDeadline() && f.Mark == speculators.MarkOutputLost && f.Deadline <= now && (first == 0 || f.Deadline < first) {
			first = f.Deadline
		}
	}
	return first, first > 0
}

// boundCopiesRecords is how many of the most recent bound-copy records
// rule v52 pools.
const boundCopiesRecords = tailJobs

// learnedBoundCopies is the share of the copied maps a copy won, pooled
// over the most recent boundCopiesRecords bound-copy records (rule v52),
// and how many copied maps they hold.
func learnedBoundCopies(prior speculators.Prior) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	all := tp.TailFits()
	copied, won := 0, 0
	for i, n := len(all)-1, 0; i >= 0 && n < boundCopiesRecords; i-- {
		if f := all[i]; f.IsDeadline() && f.Mark == speculators.MarkBoundCopies {
			n++
			copied += f.Copied
			won += f.CopyWins
		}
	}
	if copied == 0 {
		return 0, 0
	}
	return float64(won) / float64(copied), copied
}

// boundCopiesLostMember is bounded-copies-lost-member and what its reason
// adds when the last error-bound jobs' copies won less than
// bounded-copies-lost-wins of at least futileMinCopies copied maps (rule
// v52), else "".
func (p *policy) boundCopiesLostMember() (string, string) {
	if p.boundLostMember == "" || p.boundLostWins <= 0 {
		return "", ""
	}
	if wins, copied := learnedBoundCopies(p.env.Prior); copied >= p.boundLostCopied && wins < p.boundLostWins {
		return p.boundLostMember, fmt.Sprintf("; copies of the last error-bound jobs' maps won %.2f of %d, below %.2f (%s)", wins, copied, p.boundLostWins, ParamBoundLostM)
	}
	return "", ""
}

// learnedBoundSpread is the most recent bound-spread records' (rule v56)
// spread and upper-half spread, each weighted by its maps, over the last
// tailJobs of them, and how many it read.
func learnedBoundSpread(prior speculators.Prior) (sigma, upper float64, n int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0, 0
	}
	all := tp.TailFits()
	var w float64
	for i := len(all) - 1; i >= 0 && n < tailJobs; i-- {
		if f := all[i]; f.IsDeadline() && f.Mark == speculators.MarkBoundSpread && f.Maps > 0 {
			n++
			sigma += f.Sigma * float64(f.Maps)
			upper += f.Upper * float64(f.Maps)
			w += float64(f.Maps)
		}
	}
	if w == 0 {
		return 0, 0, 0
	}
	return sigma / w, upper / w, n
}

// boundSpreadNarrowMember is bounded-spread-narrow-member and what its
// reason adds when the prior holds no map record and the last
// bound-spread records read an upper half at most rule v48's
// bounded-narrow-upper over a spread of at least bounded-spread-narrow-lower
// (rule v56): records narrow on both sides are alike maps whose only tail
// is a rare far outlier (heldout21/slots-rare-far-outliers reads 0.04-0.08).
func (p *policy) boundSpreadNarrowMember() (string, string) {
	if p.boundSpreadMember == "" || p.narrowUpper <= 0 {
		return "", ""
	}
	if _, jobs := learnedUpper(p.env.Prior); jobs > 0 {
		return "", ""
	}
	sigma, upper, n := learnedBoundSpread(p.env.Prior)
	if n == 0 || upper > p.narrowUpper || sigma < p.boundSpreadLower {
		return "", ""
	}
	return p.boundSpreadMember, fmt.Sprintf("; no map record, and the last %d error-bound jobs' maps at their bound spread %.2f, at least %.2f, their upper half %.2f, at most %.2f: a copy's gain is bounded (%s)", n, sigma, p.boundSpreadLower, upper, p.narrowUpper, ParamBoundSpreadM)
}

// lostAllWhy is what rule v51 adds to a job's reason.
func lostAllWhy(at speculators.Time) string {
	return fmt.Sprintf("; a job lost a map output at %.1fs: the failure layer re-runs a failed node's outputs at once (%s)", float64(at)/1000, ParamLostAll)
}

// futileMinCopies is the fewest copied maps the futile switch reads.
const futileMinCopies = 3

// reduceMinTimes is the fewest reduce times a reduce record reads: the
// job's median reduce is the reference, and of fewer it is one task's time.
// A reduce record of fewer carries rule v39's ratio alone.
const reduceMinTimes = speculators.RatioOnlyReduces

// reduceSlowFactor is how many times the job's median reduce a node's
// reduces must take for the node to count slow. Higher than slowFactor: a
// node runs one or two of a job's reduces, so there is no node median to
// smooth task noise (heldout2/mixed-fifo's lognormal sigma-0.4 noise puts
// one reduce in six past 1.5x, one in twenty-five past 2x).
const reduceSlowFactor = 2.0

// FitReduces is the job's reduce record (rule v8) once its reduces are
// done: the share of the nodes that ran them on which they were slow
// (slowShare of the reduces); ok is false with fewer than reduceMinTimes
// reduce times.
func FitReduces(job *speculators.Job, now speculators.Time) (speculators.TailFit, bool) {
	share, n := slowShare(job, speculators.Reduce, reduceSlowFactor)
	if n < reduceMinTimes {
		return speculators.TailFit{}, false
	}
	f := speculators.TailFit{Reduces: n, ReduceSlow: share}
	f.Copied, f.CopyWins = copyWins(job, speculators.Reduce)
	if sigma, originals := spreadOf(job, speculators.Reduce, now); originals >= reduceMinTimes {
		f.ReduceSigma = sigma
	}
	return f, true
}

// ratioMinMaps is the fewest succeeded maps ReduceRatio reads: rule
// v37's floor of maps (slots-one-reduce-maps' default), so that every job
// the switch can take leaves a ratio.
const ratioMinMaps = 4

// ReduceRatio is the job's record of its reduce time against its map time
// (rule v39), read once its reduces are done: the median over its
// reduces' succeeded attempts of the time each ran after the job's last
// map ended (its finish less the later of its start and that end) over
// the job's map phase (the earliest start of a succeeded map attempt to
// the latest finish of one). It says which phase of the job is the long
// one: about 0.2-1.8 a job where Weibull maps of shape 0.6 beside a reduce
// of 20 s make the map phase long, 0.9-37 where one reduce of about 90 s
// follows a wave of 10 s maps (docs/auto-history.md, rule v39). ok is
// false with fewer than ratioMinMaps succeeded maps or no succeeded
// reduce, or with a ratio of 0 (reduces that ended with the maps).
// Choices, said plainly: the time after the last map, not the reduce's
// run time, since a reduce started early (slow-start) waits in its copy
// phase for the maps, a wait the maps' tail makes (on the Weibull row the
// run times read 21-92 s for reduces of 14 s after the maps); the map
// phase, not the median map, since the phase is what map copies shorten
// and a median read 2.5-7.3 s on that row as copies won (a first try
// against the median map put the two rows' ratios within 10% of each
// other). What it reads, attempt starts and finishes, the shim reports
// live.
func ReduceRatio(job *speculators.Job) (float64, bool) {
	var reduces []float64
	var firstMap, lastMap speculators.Time
	maps := 0
	for _, t := range job.Tasks[speculators.Map] {
		for _, at := range t.Attempts {
			if at.State == speculators.StateSucceeded && at.Finish > at.Start {
				if maps == 0 || at.Start < firstMap {
					firstMap = at.Start
				}
				maps++
				lastMap = max(lastMap, at.Finish)
			}
		}
	}
	if maps < ratioMinMaps {
		return 0, false
	}
	for _, t := range job.Tasks[speculators.Reduce] {
		for _, at := range t.Attempts {
			if at.State == speculators.StateSucceeded && at.Finish > at.Start {
				reduces = append(reduces, float64(at.Finish-max(at.Start, lastMap)))
			}
		}
	}
	if len(reduces) == 0 {
		return 0, false
	}
	m := float64(lastMap - firstMap)
	r := speculators.Percentile(reduces, 50) / m
	if m <= 0 || !(r > 0) || r > speculators.MaxReduceRatio {
		return 0, false
	}
	return r, true
}

// learnedReduceRatio is the largest ReduceRatio of the most recent
// tailJobs records that carry one, and how many it read (rule v39).
// Choice: the largest, not the mean: one reduce of a lognormal law may
// read short (a reduce started early ran much of its work beside the
// maps), and a job whose reduces are short leaves no long one, so one
// long reduce among the last records says the reduces are long.
func learnedReduceRatio(prior speculators.Prior) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	all := tp.TailFits()
	m, n := 0.0, 0
	for i := len(all) - 1; i >= 0 && n < tailJobs; i-- {
		if f := all[i]; f.ReduceRatio > 0 { // a deadline record has none
			m = max(m, f.ReduceRatio)
			n++
		}
	}
	return m, n
}

// Rule v6: node-speed spread, carried across jobs as the map-time spread is.
//
// Each exact job with reduces also reports, with its tail fit, the share of
// the nodes that ran its maps on which they were slow (SlowShare). A new
// exact job with reduces on a cluster of containers reads the most recent
// tailJobs shares (learnedSlow) and, at spread-share or above, runs
// spread-member (grass) from its first decision, over the busy and
// idle-slot cuts (as rule v5's tail member; v5 comes first).
//
// Choices, and why:
//   - Containers only (JobInfo.SlotPools false, as live always is): with
//     Hadoop 1's separate map and reduce slots the GRASS family lost to
//     late, sda and ese on every node-speed scenario measured
//     (late-ec2-heterogeneous, tuning/hetero-stream), and won with
//     containers on the same stream (docs/auto-history.md). Rule v7 gives
//     slot pools their own member, ese (spread-slots-member): within 1% of
//     the best on tuning/hetero-stream and heldout/hetero-mixed, where
//     grass as auto's member lost 2-3%, and 10% faster than v6 on
//     heldout6/slots-three-speeds-reduces (3 seeds).
//   - Shares of nodes, not of attempts: a member that keeps work off the
//     slow nodes (GRASS's pull mode) still lands some there, and each node
//     counts once however few of the job's maps it ran, so the signal does
//     not fade under the member it calls for.
//   - A map attempt's time is its run time if it succeeded, its run time
//     over its progress if it was killed with some progress (an original a
//     copy beat on a slow node is the signal); failed ones are left out (a
//     node fault is the failure layer's).
//   - Across jobs: a node's speed is the cluster's, not the job's, and the
//     first job has no completions at its first placement.

// alikeMinJobs is the fewest earlier fits the alike busy member needs: one
// job may have run its maps on the fast nodes only (heldout3's
// hetero-three-speeds at seed 1: its first job's fit read no slow node, and
// the next jobs ran sca instead of sda, 151.6 s against 149.5 over 3 seeds).
const alikeMinJobs = 3

// slowFactor is how many times the job's median map time a node's median
// must reach for the node to count slow (two speeds 1.5x apart or more; the
// +-10% task noise of the scenarios' alike nodes never reaches it).
const slowFactor = 1.5

// slowMinProgress is the least progress a killed attempt needs for its
// time over its progress to stand for its whole time.
const slowMinProgress = 0.1

// SlowShare is the share of the nodes that ran the job's map attempts
// (originals and copies) whose median map time was at least slowFactor
// times the job's median: run time for a success, run time over progress
// for a kill with some progress; 0 with fewer than tailMinMaps times.
func SlowShare(job *speculators.Job) float64 {
	share, n := slowShare(job, speculators.Map, slowFactor)
	if n < tailMinMaps {
		return 0
	}
	return share
}

// slowShare is SlowShare for the job's tasks of type ty, a node slow at
// factor times the job's median, and how many attempt times it read.
func slowShare(job *speculators.Job, ty speculators.TaskType, factor float64) (float64, int) {
	type nodeTimes struct {
		node  speculators.NodeID
		times []float64
	}
	var nodes []nodeTimes
	at := map[speculators.NodeID]int{}
	var all []float64
	for _, t := range job.Tasks[ty] {
		for _, a := range t.Attempts {
			var d float64
			switch {
			case a.State == speculators.StateSucceeded && a.Finish > a.Start:
				d = float64(a.Finish - a.Start)
			case a.State == speculators.StateKilled && a.Finish > a.Start && a.Progress >= slowMinProgress:
				d = float64(a.Finish-a.Start) / a.Progress
			default:
				continue
			}
			i, ok := at[a.Node]
			if !ok {
				i = len(nodes)
				at[a.Node] = i
				nodes = append(nodes, nodeTimes{node: a.Node})
			}
			nodes[i].times = append(nodes[i].times, d)
			all = append(all, d)
		}
	}
	if len(nodes) == 0 {
		return 0, 0
	}
	med := speculators.Percentile(all, 50)
	if med <= 0 {
		return 0, 0
	}
	slow := 0
	for _, n := range nodes {
		if speculators.Percentile(n.times, 50) >= factor*med {
			slow++
		}
	}
	return float64(slow) / float64(len(nodes)), len(all)
}

// learnedSlow is the slow-node share of the most recent tailJobs fits the
// prior holds, each weighted by its maps, and how many fits it read.
func learnedSlow(prior speculators.Prior) (float64, int) {
	return learnedMean(prior, func(f speculators.TailFit) float64 { return f.Slow })
}

// learnedSigma is the map-time spread of the most recent tailJobs fits the
// prior holds, each weighted by its maps, and how many fits it read (0:
// none, or a prior that keeps no fits).
func learnedSigma(prior speculators.Prior) (float64, int) {
	return learnedMean(prior, func(f speculators.TailFit) float64 { return f.Sigma })
}

// learnedMean is the mean of value over the most recent tailJobs fits the
// prior holds, each weighted by its maps, and how many fits it read.
func learnedMean(prior speculators.Prior, value func(speculators.TailFit) float64) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	return recentMean(tp.TailFits(), false, func(f speculators.TailFit) (float64, float64) { return value(f), float64(f.Maps) })
}

// recentMean is the mean of value over the most recent tailJobs fits that
// are reduce records (reduces) or map records (not), each weighted as value
// says, and how many fits it read.
func recentMean(all []speculators.TailFit, reduces bool, value func(speculators.TailFit) (v, weight float64)) (float64, int) {
	var sum, w float64
	n := eachRecent(all, reduces, tailJobs, func(f speculators.TailFit) {
		v, wt := value(f)
		sum += v * wt
		w += wt
	})
	if w == 0 {
		return 0, 0
	}
	return sum / w, n
}

// eachRecent calls visit on the most recent n fits that are reduce records
// (reduces) or map records (not), newest first, and says how many it
// visited.
func eachRecent(all []speculators.TailFit, reduces bool, n int, visit func(speculators.TailFit)) int {
	return eachRecentWhere(all, reduces, n, nil, visit)
}

// eachRecentWhere is eachRecent over the fits keep accepts (nil: every
// fit).
func eachRecentWhere(all []speculators.TailFit, reduces bool, n int, keep func(speculators.TailFit) bool, visit func(speculators.TailFit)) int {
	seen := 0
	for i := len(all) - 1; i >= 0 && seen < n; i-- {
		if f := all[i]; f.IsReduce() == reduces && !f.RatioOnly() && !f.IsDeadline() && (keep == nil || keep(f)) {
			seen++
			visit(f)
		}
	}
	return seen
}

// learnedMax is the largest value over the most recent n fits the prior
// holds that are reduce records (reduces) or map records (not), 0 for none
// (rule v12 reads tailJobs of them, rule v19 alike-sigma-records).
func learnedMax(prior speculators.Prior, reduces bool, n int, value func(speculators.TailFit) float64) float64 {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0
	}
	m := 0.0
	eachRecent(tp.TailFits(), reduces, n, func(f speculators.TailFit) { m = max(m, value(f)) })
	return m
}

// learnedMaxSlow is the largest slow share of the most recent map records
// and of the most recent reduce records (learnedMax), 0 for none.
func learnedMaxSlow(prior speculators.Prior) (maps, reduces float64) {
	return learnedMax(prior, false, tailJobs, func(f speculators.TailFit) float64 { return f.Slow }),
		learnedMax(prior, true, tailJobs, func(f speculators.TailFit) float64 { return f.ReduceSlow })
}

// spreadOnceFew says whether the last map records show slow nodes few and
// not repeated (rule v62): the slowest of them, maxSlow, at least
// spread-share and below spread-once-below, and fewer than
// spread-repeat-records of them at spread-share or above.
func (p *policy) spreadOnceFew(maxSlow float64) bool {
	if maxSlow < p.spreadShare || p.spreadOnceBelow > 0 && maxSlow >= p.spreadOnceBelow {
		return false
	}
	return p.slowMapRecords() < p.spreadRepeat
}

// spreadOnceWhy is rule v62's clause of the reason.
func (p *policy) spreadOnceWhy() string {
	return fmt.Sprintf("; %d of the last map records ran slow on at least %.2f of their nodes, fewer than %d, none on %.2f: not a repeat (%s)", p.slowMapRecords(), p.spreadShare, p.spreadRepeat, p.spreadOnceBelow, ParamSpreadOnce)
}

// slowMapRecords is how many of the most recent tailJobs map records ran
// slow on at least spread-share of their nodes (rule v62).
func (p *policy) slowMapRecords() int {
	tp, ok := p.env.Prior.(speculators.TailPrior)
	if !ok {
		return 0
	}
	n := 0
	eachRecent(tp.TailFits(), false, tailJobs, func(f speculators.TailFit) {
		if f.Slow >= p.spreadShare {
			n++
		}
	})
	return n
}

// learnedReduceSlow is the reduce slow share of the most recent tailJobs
// reduce records the prior holds, each weighted by its reduce times, and
// how many it read (rule v8).
func learnedReduceSlow(prior speculators.Prior) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	return recentMean(tp.TailFits(), true, func(f speculators.TailFit) (float64, float64) { return f.ReduceSlow, float64(f.Reduces) })
}

// learnedReduceSigma is the reduce-time spread of the most recent tailJobs
// reduce records the prior holds, each weighted by its reduce times, those
// without a spread (fewer than reduceMinTimes original reduces, or written
// before rule v9) left out of the mean, and how many records it read
// (rule v9).
func learnedReduceSigma(prior speculators.Prior) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	return recentMean(tp.TailFits(), true, func(f speculators.TailFit) (float64, float64) {
		if f.ReduceSigma == 0 {
			return 0, 0
		}
		return f.ReduceSigma, float64(f.Reduces)
	})
}

// learnedCopyWins is the share of the copied maps a copy won over the most
// recent tailJobs map records, and how many copied maps it read (rule v8);
// with reduces, of the copied reduces over the reduce records (rule v14).
func learnedCopyWins(prior speculators.Prior, reduces bool) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	copied := 0
	share, _ := recentMean(tp.TailFits(), reduces, func(f speculators.TailFit) (float64, float64) {
		copied += f.Copied
		if f.Copied == 0 {
			return 0, 0
		}
		return float64(f.CopyWins) / float64(f.Copied), float64(f.Copied)
	})
	return share, copied
}

// copiesWinsRecords is how many of the most recent map records rule v42
// pools its copies' wins over.
const copiesWinsRecords = 20

// learnedWinsPooled is the share of the copied maps a copy won over the most
// recent n map records the prior holds, pooled (won over copied), and how
// many maps they copied (rule v42).
func learnedWinsPooled(prior speculators.Prior, n int) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	copied, won := 0, 0
	eachRecent(tp.TailFits(), false, n, func(f speculators.TailFit) {
		copied += f.Copied
		won += f.CopyWins
	})
	if copied == 0 {
		return 0, 0
	}
	return float64(won) / float64(copied), copied
}

// learnedCopyWinsOfCopied is learnedCopyWins over the most recent tailJobs
// records of the kind that copied at least one task (rule v25): a job
// whose member copies nothing writes a record of no copies, which says
// nothing of whether copies win.
func learnedCopyWinsOfCopied(prior speculators.Prior, reduces bool) (float64, int) {
	tp, ok := prior.(speculators.TailPrior)
	if !ok {
		return 0, 0
	}
	copied, won := 0, 0
	eachRecentWhere(tp.TailFits(), reduces, tailJobs, func(f speculators.TailFit) bool { return f.Copied > 0 }, func(f speculators.TailFit) {
		copied += f.Copied
		won += f.CopyWins
	})
	if copied == 0 {
		return 0, 0
	}
	return float64(won) / float64(copied), copied
}

// paceMean is rule v50's stand-in for the mean task time of a job with no
// task done: the mean, over its running original attempts with a report at
// a progress of at least slowMinProgress, of the time each would take at
// the pace it kept to its last report (LATE's estimate of an attempt's
// time, Improving MapReduce Performance in Heterogeneous Environments, §4;
// finishAtPace); ok is false when no attempt has such a report. It reads
// the attempts' reports, which are the job's events, so the job's
// priority still moves only with its events (PriorityByEvents).
func paceMean(job *speculators.Job) (float64, bool) {
	n, sum := 0, 0.0
	for ty := range job.Tasks {
		live := job.Live[ty]
		for i := live.Next(0); i >= 0; i = live.Next(i + 1) {
			for _, at := range job.Tasks[ty][i].Attempts {
				if at.Speculative || !at.Running() {
					continue
				}
				if f, ok := finishAtPace(at); ok {
					n++
					sum += f - float64(at.Start)
				}
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// anyStarted reports whether a task of the job has had an attempt start
// (rule v73). The job's counts answer at once for a job with a task
// running or done, the common case on the job order's path; only a job
// with neither is read task by task (an attempt that failed or was
// killed leaves no count).
func anyStarted(job *speculators.Job) bool {
	for ty := range job.Tasks {
		if job.RunningTasks[ty]+job.Completed[ty] > 0 {
			return true
		}
	}
	for ty := range job.Tasks {
		for _, t := range job.Tasks[ty] {
			if len(t.Attempts) > 0 {
				return true
			}
		}
	}
	return false
}
