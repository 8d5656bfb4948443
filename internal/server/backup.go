package server

import (
	"encoding/json"
	"net/http"
	"time"

	"sluice/internal/backup"
)

// APIBackupPath is POST /api/v1/backup: admin's. `sluice backup` sends
// it to the server holding the data dir, since only this process can
// copy the local indexes its streams hold open (each from one Bleve
// snapshot) while they run.
const APIBackupPath = "/api/v1/backup"

// BackupRequest is POST /api/v1/backup's body: Dest is a local folder
// (absolute: the server's working dir is not the client's) or
// s3://bucket/prefix; S3 are storage options (endpoint, region,
// path_style) for it, the credentials being the server's own.
type BackupRequest struct {
	Dest string            `json:"dest"`
	S3   map[string]string `json:"s3,omitempty"`
}

// BackupResponse says what the backup holds.
type BackupResponse struct {
	Dest        string              `json:"dest"`
	Files       int                 `json:"files"`
	Bytes       int64               `json:"bytes"`
	Checkpoints []backup.Checkpoint `json:"checkpoints"`
	Took        string              `json:"took"`
}

// backupRoutes registers POST /api/v1/backup on s.mux directly: admin's.
func (s *Server) backupRoutes() {
	s.mux.HandleFunc("POST "+APIBackupPath, s.handleBackup)
}

func (s *Server) handleBackup(w http.ResponseWriter, r *http.Request) {
	var req BackupRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, badRequest("decoding the request: "+err.Error()))
		return
	}
	if req.Dest == "" {
		writeError(w, badRequest("the request has no dest"))
		return
	}
	t0 := time.Now()
	m, err := backup.TakeTo(r.Context(), req.Dest, req.S3, backup.Options{DataDir: s.opts.DataDir, Binary: s.opts.Version})
	if err != nil {
		s.log.Error("backup failed", "dest", req.Dest, "error", redactSecrets(err.Error()))
		writeError(w, err)
		return
	}
	res := BackupResponse{Dest: req.Dest, Files: len(m.Files), Checkpoints: m.Checkpoints, Took: time.Since(t0).Round(time.Millisecond).String()}
	for _, f := range m.Files {
		res.Bytes += f.Size
	}
	s.log.Info("backed up", "dest", req.Dest, "files", res.Files, "bytes", res.Bytes, "took", res.Took)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_ = writeJSON(w, res, false)
}
