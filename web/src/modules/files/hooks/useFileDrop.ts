import { useRef, useState, type DragEvent } from 'react';

const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * Files dragged over an area: `dragging` while they hover it (through its children too), and
 * `onFiles` with what is dropped. While `disabled`, nothing is taken (and nothing is shown).
 */
export function useFileDrop(onFiles: (files: FileList) => void, disabled: boolean) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const handlers = {
    onDragEnter: (event: DragEvent) => {
      if (!hasFiles(event) || disabled) return;
      depth.current += 1;
      setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!hasFiles(event) || disabled) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      if (!disabled) onFiles(event.dataTransfer.files);
    },
  };
  return { dragging, handlers };
}
