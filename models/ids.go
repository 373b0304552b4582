package models

import "strconv"

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }
