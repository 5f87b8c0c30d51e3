import { useEffect, useState } from "react";
import { loadMurderPlan, MurderPlanError, Random, type Action, type MurderPlan, type State } from "gametab-web";

// Load the tables the package carries once; the signal lets React drop the
// wait when the component goes away (StrictMode's second mount joins the
// same download).
export default function App() {
  const [plan, setPlan] = useState<MurderPlan>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const stop = new AbortController();
    loadMurderPlan(undefined, { signal: stop.signal }).then(setPlan, (e: unknown) => {
      if (!(e instanceof MurderPlanError && e.kind === "aborted")) setError(String(e));
    });
    return () => stop.abort();
  }, []);
  if (error !== undefined) return <p role="alert">{error}</p>;
  if (plan === undefined) return <p>Loading the tables…</p>;
  return <Game plan={plan} />;
}

const cards = (a: Action) => `${a.keyPerson} / ${a.brain} / ${a.killer}`;

// A start with 8 turns left: its value, the protagonists' optimal strategy,
// and turns played by both sides' optimal strategies (seeded draws).
function Game({ plan }: { plan: MurderPlan }) {
  const [game, setGame] = useState(() => ({ state: plan.rules.starts()[6]!, days: 8, log: [] as string[] }));
  const [random] = useState(() => new Random(7));
  const { state, days, log } = game;
  const over = days === 0 || plan.rules.isWon(state);

  function playTurn() {
    const mine = plan.sample("mastermind", days, state, random.next());
    const theirs = plan.sample("protagonists", days, state, random.next());
    const { afterCards } = plan.rules.turn(state, mine, theirs);
    const brain = plan.brainChoice(days, afterCards);
    const next: State = plan.rules.applyBrain(afterCards, brain.target);
    const line = `${cards(mine)} vs ${cards(theirs)}; the brain targets ${brain.target}`;
    setGame({ state: next, days: days - 1, log: [...log, line] });
  }

  return (
    <main>
      <h1>Murder Plan, {days} turns left</h1>
      <p>
        P(mastermind wins) = <output data-testid="value">{plan.value(days, state)}</output>
      </p>
      {!over && (
        <table data-testid="strategy">
          <tbody>
            {plan.strategy("protagonists", days, state).map(({ action, probability }) => (
              <tr key={cards(action)}>
                <td>{cards(action)}</td>
                <td>{probability.toFixed(4)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button onClick={playTurn} disabled={over}>
        Play a turn
      </button>
      <ol data-testid="log">
        {log.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ol>
      <p data-testid="state">{JSON.stringify({ days, index: plan.rules.index(state) })}</p>
    </main>
  );
}
