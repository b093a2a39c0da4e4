import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolRuns } from './ToolRuns';

describe('the tools a reply used', () => {
  it('shows nothing when none ran', () => {
    const { container } = render(<ToolRuns runs={undefined} />);
    expect(container.innerHTML).toBe('');
  });

  it('lists them collapsed, with their outcome and arguments', () => {
    render(
      <ToolRuns
        runs={[
          { call_id: 'a', name: 'current_time', arguments: { time_zone: 'Europe/Lisbon' }, status: 'ok', summary: '09:00', duration_ms: 3 },
          {
            call_id: 'b',
            name: 'web_search',
            arguments: '{"q": "lis',
            status: 'error',
            summary: 'The arguments were not JSON.',
            duration_ms: 1,
          },
        ]}
      />,
    );
    const details = screen.getByText('Used 2 tools: current_time, web_search').closest('details')!;
    expect(details.open).toBe(false);
    expect(screen.getByLabelText('Arguments of current_time').textContent).toContain('"time_zone": "Europe/Lisbon"');
    expect(screen.getByText('(failed)')).toBeTruthy();
  });
});
