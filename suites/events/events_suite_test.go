package events

import "testing"

func TestEvents(t *testing.T) { Suite.Run(t) }
