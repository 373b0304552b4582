// Package pdfworker runs untrusted document work in child processes with
// hard limits, so that a parser bug or a hostile file costs one worker,
// never the server (docs/decisions.md, "PDF workers").
//
// A Pool keeps Size worker processes warm: each is the same binary started
// again in worker mode (Serve on its standard input and output), moved into
// a memory cgroup of its own where one is writable, and watched by the
// parent. One job runs in a worker at a time, under:
//
//   - memory: the worker's resident set (the cgroup's limit, else the
//     parent reads VmRSS every 50 ms and kills past it; RLIMIT_AS is a
//     generous backstop and GOMEMLIMIT makes the worker's GC work first);
//   - CPU seconds: RLIMIT_CPU set before each job, and the parent's poll;
//   - wall-clock time: the job's context inside the worker, and a kill by
//     the parent shortly after;
//   - output: RLIMIT_FSIZE on every file the worker writes, and the size of
//     its answer, both bounded by Options.MaxOutput.
//
// A worker past a limit is killed and replaced; Do returns a *LimitError
// naming the limit. A worker is also replaced after MaxJobs jobs.
//
// Requests and answers are JSON frames (a 4-byte big-endian length, then
// the bytes); files pass by path in a directory both processes share.
package pdfworker
