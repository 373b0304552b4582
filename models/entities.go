package models

// Entities lists one value of every GORM model, so that tests can check each
// against the migrated schema.
func Entities() []any {
	return []any{
		&Organization{},
		&User{},
		&APIToken{},
		&Document{},
		&appSetting{},
		&Transaction{},
		&TransactionDocument{},
		&Tag{},
		&Participant{},
		&TransactionEvent{},
		&Room{},
		&IdempotencyRecord{},
		&LoginAttempt{},
		&Activity{},
		&AdminSession{},
		&WebhookEndpoint{},
		&OutboxMessage{},
		&rateLimitRow{},
		&pastDocument{},
		&dismissedSuggestion{},
		&deletedPageTags{},
		&roomRemoval{},
		&RoomEvent{},
		&roomPresenceRow{},
		&Template{},
		&TemplateVersion{},
		&TemplateDocument{},
		&AuditEvent{},
		&auditChain{},
		&metricRollup{},
		&rollupDelta{},
	}
}
