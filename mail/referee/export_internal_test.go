package referee

// SetExportLimit lowers the largest bundle "command: export" mails, for a
// test; restore puts it back.
func SetExportLimit(n int) (restore func()) {
	old := exportLimit
	exportLimit = n
	return func() { exportLimit = old }
}
