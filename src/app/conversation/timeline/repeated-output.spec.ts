import { shareRepeatedOutput } from './repeated-output';
import { eventMaker } from '../../testing/session-events';

const { ev } = eventMaker();
const resultLine = (contents: unknown[], stdout: unknown) =>
  ev({
    type: 'user',
    message: {
      content: contents.map((content, i) => ({
        type: 'tool_result',
        tool_use_id: `t${i}`,
        content,
      })),
    },
    tool_use_result: { stdout, stderr: '', interrupted: false },
  });

describe('shareRepeatedOutput', () => {
  it('leaves every value of the line as it was', () => {
    const output = 'line\n'.repeat(2000);
    const events = [
      resultLine([output], output.slice()),
      resultLine(['other', output], `${output}`),
      resultLine(['not the output'], 'the output'),
      resultLine([[{ type: 'text', text: 'parts' }]], 'parts'),
      resultLine([output], 42),
      ev({ type: 'assistant', message: { content: [{ type: 'text', text: output }] } }),
      ev('not an object'),
    ];
    const before = JSON.stringify(events);
    events.forEach(shareRepeatedOutput);
    expect(JSON.stringify(events)).toBe(before);
  });
});
