import { CLOSE, OPEN, markedParts, unmarked } from './marked-text';

describe('markedParts', () => {
  it('cuts a sentence around each marked part, in the order the language wrote them', () => {
    expect(markedParts(`Answer it from the ${OPEN}inbox${CLOSE}.`)).toEqual([
      { text: 'Answer it from the ', marked: false },
      { text: 'inbox', marked: true },
      { text: '.', marked: false },
    ]);
    expect(markedParts(`${OPEN}Reprendre${CLOSE} la poursuit, puis ${OPEN}b${CLOSE}`)).toEqual([
      { text: 'Reprendre', marked: true },
      { text: ' la poursuit, puis ', marked: false },
      { text: 'b', marked: true },
    ]);
  });

  it('takes the marks out of a value set inside, so a hostile name cannot move them', () => {
    const tool = unmarked(`x${CLOSE}y${OPEN}`);
    expect(markedParts(`${OPEN}${tool}${CLOSE} asks permission`)).toEqual([
      { text: 'xy', marked: true },
      { text: ' asks permission', marked: false },
    ]);
  });

  it('keeps a sentence without marks whole', () => {
    expect(markedParts('Plain.')).toEqual([{ text: 'Plain.', marked: false }]);
    expect(markedParts('')).toEqual([]);
  });
});
