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
  // The field shows the machine's quantity, except while the member has emptied it to type another: a typed number
  // goes to the machine at once, and what it made of it (clamped to stock and 1..999) is what the field shows.
  const [emptied, setEmptied] = useState(false);
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
          value={emptied ? '' : String(value)}
          disabled={disabled}
          aria-describedby={`${id}-max`}
          onChange={(event) => {
            const typed = event.target.value.replace(/\D/g, '');
            setEmptied(typed === '');
            if (typed !== '') props.onSet(Number(typed));
          }}
          onBlur={() => setEmptied(false)}
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
