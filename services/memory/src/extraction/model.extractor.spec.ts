import { EXTRACTION_JSON_SCHEMA, ExtractionAnswerError, extractionPrompt, parseExtraction } from './model.extractor';

describe("the model extractor's contract", () => {
  it('converts an answer in the schema', () => {
    const answer = JSON.stringify({
      memories: [
        { text: ' Lives in  Lisbon ', subject: 'home', is_inference: false, is_fact: true },
        { text: '', subject: null, is_inference: false, is_fact: true },
      ],
    });
    expect(parseExtraction(answer)).toEqual([{ text: 'Lives in Lisbon', subject: 'home', isInference: false, isFact: true }]);
  });

  it('refuses an answer that is not JSON or not the schema', () => {
    expect(() => parseExtraction('Sure! Here are the memories')).toThrow(ExtractionAnswerError);
    expect(() => parseExtraction('{"memories":[{"text":"x"}]}')).toThrow(ExtractionAnswerError);
  });

  it('shows the model what is known and the exchange, and asks for a strict schema', () => {
    const prompt = extractionPrompt({ userText: 'I moved to Porto', assistantText: 'Nice!' }, [
      { text: 'Lives in Lisbon', subject: 'home' },
    ]);
    expect(prompt).toContain('- [home] Lives in Lisbon');
    expect(prompt).toContain('I moved to Porto');
    expect(EXTRACTION_JSON_SCHEMA.properties.memories.items.required).toEqual(['text', 'subject', 'is_inference', 'is_fact']);
  });
});
