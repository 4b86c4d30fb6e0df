import { AddOutline, MinusOutline } from 'antd-mobile-icons';
import { useState } from 'react';

interface QuantityStepperProps {
  id: string;
  label: string;
  value: number;
  max: number;
  /** What the machine allows (snapshot.can): the buttons are off otherwise. */
  canIncrement: boolean;
  canDecrement: boolean;
  increaseLabel: string;
  decreaseLabel: string;
  disabled?: boolean;
  onIncrement: () => void;
  onDecrement: () => void;
  /** A whole number typed in; the machine clamps it. */
  onSet: (quantity: number) => void;
}

/**
 * A quantity as members set it on phones: − and + buttons (44 px) around a labelled number field with the numeric
 * keyboard. Written here rather than antd-mobile's Stepper, which puts slider ARIA on a div and leaves its input
 * without a label (axe: critical). What is allowed comes from the flow's machine.
 */
export function QuantityStepper(props: QuantityStepperProps) {
  const { id, label, value, max, canIncrement, canDecrement, increaseLabel, decreaseLabel, disabled = false } = props;
  // What is being typed, until it is a whole number the machine can take (an emptied field stays empty meanwhile).
  const [draft, setDraft] = useState(String(value));
  // The machine's value moved (a button, a clamp): show it (React's "adjust state when a prop changes" pattern).
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setDraft(String(value));
  }
  return (
    <div className="quantity-stepper">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="quantity-controls">
        <button type="button" className="quantity-button" aria-label={decreaseLabel} disabled={disabled || !canDecrement} onClick={props.onDecrement}>
          <MinusOutline aria-hidden="true" />
        </button>
        <input
          id={id}
          className="quantity-input"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          value={draft}
          disabled={disabled}
          aria-describedby={`${id}-max`}
          onChange={(event) => {
            const typed = event.target.value.replace(/\D/g, '');
            setDraft(typed);
            if (typed !== '') props.onSet(Number(typed));
          }}
          onBlur={() => setDraft(String(value))}
        />
        <button type="button" className="quantity-button" aria-label={increaseLabel} disabled={disabled || !canIncrement} onClick={props.onIncrement}>
          <AddOutline aria-hidden="true" />
        </button>
      </div>
      <span id={`${id}-max`} className="visually-hidden">
        {`1–${max}`}
      </span>
    </div>
  );
}
