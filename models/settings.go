package models

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
)

// appSetting is one fact recorded once for the whole installation.
type appSetting struct {
	Key       string    `gorm:"column:key;primaryKey"`
	Value     string    `gorm:"column:value"`
	CreatedAt time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

// TableName implements gorm's tabler.
func (appSetting) TableName() string { return "app_settings" }

// claimSetting inserts key inside tx; it reports false when the key already exists.
func claimSetting(ctx context.Context, tx *gorm.DB, key, value string, now time.Time) (bool, error) {
	err := tx.WithContext(ctx).Create(&appSetting{Key: key, Value: value, CreatedAt: now}).Error
	if err == nil {
		return true, nil
	}
	if errors.Is(mapDBError(err), ErrConflict) {
		return false, nil
	}
	return false, mapDBError(err)
}

// Setting reads an installation fact; ok is false when it was never recorded.
func (s *Store) Setting(ctx context.Context, key string) (value string, ok bool, err error) {
	var row appSetting
	err = s.db.WithContext(ctx).Where("key = ?", key).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, mapDBError(err)
	}
	return row.Value, true, nil
}
