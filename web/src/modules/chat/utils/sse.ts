/** An incremental parser of `text/event-stream`: event name and data per message. */
export type SseMessage = { event: string; data: string };

export function createSseParser(onMessage: (message: SseMessage) => void) {
  let buffer = '';
  let event = '';
  let data: string[] = [];

  const dispatch = () => {
    if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n') });
    event = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return; // a comment (keep-alive)
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };

  return {
    push(chunk: string) {
      buffer += chunk;
      let index: number;
      while ((index = buffer.search(/\r\n|\r|\n/)) !== -1) {
        const text = buffer.slice(0, index);
        // A lone \r at the very end may be the first half of \r\n: wait for more.
        if (buffer[index] === '\r' && index === buffer.length - 1) break;
        buffer = buffer.slice(index + (buffer.startsWith('\r\n', index) ? 2 : 1));
        line(text);
      }
    },
    end() {
      if (buffer) line(buffer);
      buffer = '';
      dispatch();
    },
  };
}
