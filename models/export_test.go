package models

// MaskSQLLiterals exposes maskSQLLiterals to the external tests.
var MaskSQLLiterals = maskSQLLiterals
