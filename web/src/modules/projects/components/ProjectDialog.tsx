import type { Project, ProjectFile } from '@app/contracts/chat';
import { PROJECT_LIMITS } from '@app/contracts/chat/project-limits';
import { useEffect, useRef, useState } from 'react';
import { Dialog } from '../../../ui/Dialog';
import { Field } from '../../../ui/Field';
import { IconButton } from '../../../ui/IconButton';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { showToast } from '../../../ui/toastStore';
import { messageOf } from '../../common/utils/errors';
import { ACCEPTED_FILE_TYPES, uploadFile } from '../../files/api/filesApi';
import { useProjectActions } from '../hooks/projectQueries';

type ProjectDialogProps = {
  open: boolean;
  /** The project to edit; none to create one. */
  project?: Project | null;
  onClose: () => void;
  onSaved?: (project: Project) => void;
};

/** A project's name, its instructions (added to the prompt of its conversations) and its files (given to the model in them). */
export function ProjectDialog({ open, project, onClose, onSaved }: ProjectDialogProps) {
  const { create, update } = useProjectActions();
  const [name, setName] = useState('');
  const [instructions, setInstructions] = useState('');
  const [files, setFiles] = useState<ProjectFile[]>([]);
  const [uploading, setUploading] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!open) return;
    setName(project?.name ?? '');
    setInstructions(project?.instructions ?? '');
    setFiles(project?.files ?? []);
    setProblem(null);
  }, [open, project]);

  const addFiles = async (chosen: FileList | null) => {
    const list = [...(chosen ?? [])].slice(0, PROJECT_LIMITS.filesMax - files.length);
    if (!list.length) return;
    setUploading((n) => n + list.length);
    await Promise.all(
      list.map(async (file) => {
        try {
          const stored = await uploadFile(file);
          setFiles((now) =>
            now.some((f) => f.object_store_object_id === stored.object_store_object_id)
              ? now
              : [...now, { object_store_object_id: stored.object_store_object_id, mime_type: stored.mime_type, filename: stored.filename }],
          );
        } catch (error) {
          showToast(messageOf(error, `${file.name} could not be uploaded.`), 'error');
        } finally {
          setUploading((n) => n - 1);
        }
      }),
    );
  };

  const saving = create.isPending || update.isPending;
  return (
    <Dialog open={open} title={project ? 'Edit project' : 'New project'} onClose={onClose} className="project-dialog">
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          const body = {
            name: name.trim(),
            instructions,
            files: files.map((f) => ({ object_store_object_id: f.object_store_object_id })),
          };
          if (!body.name) return;
          const done = {
            onSuccess: (saved: Project) => {
              onClose();
              onSaved?.(saved);
            },
            onError: (error: unknown) => setProblem(messageOf(error, 'The project could not be saved.')),
          };
          if (project) update.mutate({ id: project.project_id, ...body }, done);
          else create.mutate(body, done);
        }}
      >
        <Field label="Name">
          {(control) => (
            <input
              {...control}
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={PROJECT_LIMITS.nameMaxChars}
              required
              autoFocus
              placeholder="Kitchen renovation"
            />
          )}
        </Field>
        <Field
          label="Instructions"
          hint={`Added to the prompt of every conversation in this project (${instructions.length.toLocaleString()} / ${PROJECT_LIMITS.instructionsMaxChars.toLocaleString()} characters).`}
        >
          {(control) => (
            <textarea
              {...control}
              value={instructions}
              onChange={(event) => setInstructions(event.target.value)}
              maxLength={PROJECT_LIMITS.instructionsMaxChars}
              rows={5}
              placeholder="Answer in metric units. Our budget is €20,000."
            />
          )}
        </Field>
        <div className="field">
          <span id="project-files-label">Files</span>
          <small className="muted">Given to the model in every conversation of this project (at most {PROJECT_LIMITS.filesMax}).</small>
          {files.length > 0 && (
            <ul className="project-files" aria-labelledby="project-files-label">
              {files.map((file) => (
                <li key={file.object_store_object_id} className="project-file">
                  <Icon name="file" size={16} />
                  <span className="project-file__name" title={file.filename}>
                    {file.filename}
                  </span>
                  <IconButton
                    small
                    icon="close"
                    iconSize={14}
                    label={`Remove ${file.filename}`}
                    onClick={() => setFiles((now) => now.filter((f) => f.object_store_object_id !== file.object_store_object_id))}
                  />
                </li>
              ))}
            </ul>
          )}
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            accept={ACCEPTED_FILE_TYPES.join(',')}
            aria-label="Add files to the project"
            onChange={(event) => {
              void addFiles(event.target.files);
              event.target.value = '';
            }}
          />
          <button
            type="button"
            className="button button--secondary project-files__add"
            disabled={files.length >= PROJECT_LIMITS.filesMax || uploading > 0}
            onClick={() => picker.current?.click()}
          >
            {uploading > 0 ? <Spinner label="Uploading" /> : <Icon name="paperclip" size={16} />} Add files
          </button>
        </div>
        {problem && (
          <p className="notice notice--error" role="alert">
            {problem}
          </p>
        )}
        <div className="form__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={!name.trim() || saving || uploading > 0}>
            {project ? 'Save' : 'Create project'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
