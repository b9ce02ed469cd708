package abi

import "testing"

func TestABI(t *testing.T) { Suite.Run(t) }
