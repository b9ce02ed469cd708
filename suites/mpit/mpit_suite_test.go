package mpit

import "testing"

func TestMPIT(t *testing.T) { Suite.Run(t) }
