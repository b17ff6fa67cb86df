import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

public class CalcTest {
    @Test
    void addsNumbers() {
        assertEquals(5, Calc.add(2, 3));
    }

    @Test
    void greets() {
        assertEquals("Hello, ann", Calc.greet("ann"), "greeting");
    }

    @Test
    void passes() {
        assertEquals(1, Calc.add(0, 0));
    }

    @Test
    void isPositive() {
        assertTrue(Calc.add(-5, 1) > 0);
    }
}
