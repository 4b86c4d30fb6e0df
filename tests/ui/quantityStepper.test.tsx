/**
 * The settlement's quantity field (QuantityStepper) against the real settlement machine: what the field shows is
 * the machine's quantity, also when a typed number is clamped to the stock, and an emptied field stays empty until
 * the member types or leaves it.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useActorRef, useSelector } from '@xstate/react';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { checkoutOf, mug, settlementInput } from '../../scripts/machineGraph/buy.model';
import { settlementMachine } from '../../machines/buy/settlementMachine';
import { selectCanDecrement, selectCanIncrement, selectQuantity, selectQuantityLimit } from '../../machines/buy/settlementSelectors';
import { QuantityStepper } from '../../src/components/QuantityStepper';

/** The mug with 3 in stock, loaded: the settlement is ready. */
const readyMachine = settlementMachine.provide({ actors: { loadCheckout: fromPromise(async () => checkoutOf({ ...mug, stock: 3 })) } });

function Stepper() {
  const actor = useActorRef(readyMachine, { input: settlementInput });
  const quantity = useSelector(actor, selectQuantity);
  const limit = useSelector(actor, selectQuantityLimit);
  const canIncrement = useSelector(actor, selectCanIncrement);
  const canDecrement = useSelector(actor, selectCanDecrement);
  if (limit === null) return <p>loading</p>;
  return (
    <QuantityStepper
      id="quantity"
      label="Quantity"
      value={quantity}
      max={limit}
      canIncrement={canIncrement}
      canDecrement={canDecrement}
      increaseLabel="More"
      decreaseLabel="Fewer"
      onIncrement={() => actor.send({ type: 'quantity.inc' })}
      onDecrement={() => actor.send({ type: 'quantity.dec' })}
      onSet={(value) => actor.send({ type: 'quantity.set', quantity: value })}
    />
  );
}

describe('QuantityStepper on the settlement machine', () => {
  it('shows the clamped quantity when a number above the stock is typed, even at the limit already', async () => {
    const user = userEvent.setup();
    render(<Stepper />);
    const field = await screen.findByLabelText<HTMLInputElement>('Quantity');
    await user.click(screen.getByRole('button', { name: 'More' }));
    await user.click(screen.getByRole('button', { name: 'More' }));
    expect(field.value).toBe('3');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'More' }).disabled).toBe(true);
    // At the limit, typing a 5 after the 3 asks for 35: the machine keeps 3, and so does the field.
    await user.type(field, '5');
    expect(field.value).toBe('3');
  });

  it('keeps an emptied field empty while typing, then shows what the machine made of the number', async () => {
    const user = userEvent.setup();
    render(<Stepper />);
    const field = await screen.findByLabelText<HTMLInputElement>('Quantity');
    await user.clear(field);
    expect(field.value).toBe('');
    await user.type(field, '2');
    expect(field.value).toBe('2');
    await user.clear(field);
    await user.tab();
    // Left empty: the field shows the machine's quantity again.
    expect(field.value).toBe('2');
    await user.clear(field);
    await user.type(field, 'x9');
    expect(field.value).toBe('3');
  });
});
