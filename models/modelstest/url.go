package modelstest

// URL is the test's database URL, for a test that opens it again with
// options of its own (a logger, a slow-statement threshold).
func (e *Env) URL() string { return e.url }
