package qmpi

import "testing"

func TestQMPI(t *testing.T) { Suite.Run(t) }
