const STEPS = ['Age', 'Your name', 'Memories'];

export function OnboardingSteps({ current }: { current: number }) {
  return (
    <ol className="steps" aria-label="Onboarding steps">
      {STEPS.map((step, index) => (
        <li
          key={step}
          data-state={index < current ? 'done' : index === current ? 'current' : 'todo'}
          aria-current={index === current ? 'step' : undefined}
        >
          <span className="steps__number">{index + 1}</span> {step}
        </li>
      ))}
    </ol>
  );
}
